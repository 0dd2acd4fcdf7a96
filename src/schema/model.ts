/**
 * The schema model: what the indexer needs to know from the SDK's XSD set. Built by the loader in
 * `src/schema/`, plain data (serialisable as JSON for caching), queried through {@link SchemaQueries}.
 * Type names are canonical XSD spellings; lookups by name are case-insensitive.
 */

export type GameId = "ra3" | "tw" | "kw";

/** What an attribute or a simple content carries, reference-wise. */
export interface ValueInfo {
  /** Canonical simple type name (or a builtin like `xs:string`), or null when unknown. */
  readonly typeName: string | null;
  /** The referenced asset type (`xas:refType`), attribute/element level winning over the type's. */
  readonly refType: string | null;
  /** `xas:isRef` or `xas:isWeakRef` on the type or a base. */
  readonly isRef: boolean;
  readonly isWeakRef: boolean;
  /** The simple type chain contains `Poid` (pipeline-local ids: never global references). */
  readonly isPoid: boolean;
  /** `xs:list`: whitespace-separated tokens. */
  readonly isList: boolean;
  /** Enumeration values (empty when not an enumeration). */
  readonly enumValues: readonly string[];
  /** A pattern facet admits `$DEFINE` / `=expression` values. */
  readonly allowsDefine: boolean;
  readonly isBoolean: boolean;
}

export interface AttributeInfo extends ValueInfo {
  readonly name: string;
  readonly required: boolean;
  readonly defaultValue: string | null;
}

export interface ChildInfo {
  readonly name: string;
  /** Canonical type name of the child (named or `@inline:<Parent>/<Name>`), or null. */
  readonly type: string | null;
  readonly minOccurs: number;
  /** -1 for unbounded. */
  readonly maxOccurs: number;
  /** Element-level `xas:refType` for simple-content reference elements. */
  readonly refType: string | null;
  /**
   * (Added by the schema loader.) What the text content of this element is when it is simple: the
   * content of its type with the element-level `xas:refType` applied (element level wins), or null for
   * element-only content. Saves the indexer a second lookup per element.
   */
  readonly content?: ValueInfo | null;
  /**
   * (Added.) Set by `childElementType` when the parent's type does not declare this child and the
   * answer comes from the global fallback map (so "not allowed here" checks can tell).
   */
  readonly fallback?: boolean;
}

export interface ComplexTypeInfo {
  readonly name: string;
  /** Base type (extension or restriction), canonical, or null. */
  readonly base: string | null;
  /** All attributes after extension expansion (own override base), keyed by attribute name. */
  readonly attributes: Readonly<Record<string, AttributeInfo>>;
  /** Child element declarations after expansion, keyed by element name. */
  readonly children: Readonly<Record<string, ChildInfo>>;
  /** For simpleContent types (or simple-typed elements): what the text content is. */
  readonly content: ValueInfo | null;
  /** XSD-declared (not universal) `inheritFrom`. */
  readonly declaresInheritFrom: boolean;
}

export interface SimpleTypeInfo extends ValueInfo {
  readonly name: string;
  readonly base: string | null;
}

/** Plain-data schema model (cacheable). */
export interface SchemaModel {
  readonly game: GameId | null;
  /** Folder the XSDs were loaded from. */
  readonly sourceDir: string;
  /** Number of XSD files read. */
  readonly fileCount: number;
  /** Top-level asset element names (children of `AssetDeclaration`), canonical. Excludes Tags/Includes/Defines. */
  readonly assetElements: readonly string[];
  /** Element name → type name for the children of `AssetDeclaration`. */
  readonly assetElementTypes: Readonly<Record<string, string>>;
  readonly complexTypes: Readonly<Record<string, ComplexTypeInfo>>;
  readonly simpleTypes: Readonly<Record<string, SimpleTypeInfo>>;
  /** Fallback element name → type for elements seen anywhere (first declaration, global elements win). */
  readonly globalElements: Readonly<Record<string, string>>;
  /** Types designed to be referenced (domain-spec §9.1), canonical names. */
  readonly designedTargets: readonly string[];
}

/** A problem found while loading the XSD set; loading continues where it can. */
export interface SchemaDiagnostic {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/**
 * What the text of an element (or a value of a type) names when it is read for references: the asset
 * type it refers to, and whether it is a whitespace-separated list.
 */
export interface TextReference {
  readonly refType: string;
  readonly isList: boolean;
}

/**
 * How extraction reads one declared attribute: a `reference` (a refType or `isRef`, not a Poid), a `poid`
 * (a reference resolved within its own object), a `runtime-name` (a plain string the engine looks up by
 * id at run time, see `runtime-names.ts`) or `plain` (not read for references).
 */
export type AttributeReading = "reference" | "poid" | "runtime-name" | "plain";

/** One declared attribute of a type with everything extraction asks about it, answered once. */
export interface AttributeFacts {
  readonly info: AttributeInfo;
  readonly reading: AttributeReading;
  /** The runtime-name target ({@link SchemaQueries.runtimeName}) when `reading` is `runtime-name`, else null. */
  readonly runtimeTarget: string | null;
  /**
   * The owning type is assignable to `info.refType` ({@link SchemaQueries.isAssignable}; true without a
   * refType): an `id` so typed names its own element, not another asset.
   */
  readonly ownTypeIsTarget: boolean;
}

/** A child element as it is typed in one parent: its declaration, its type's table, what its text names. */
export interface ChildFacts {
  readonly info: ChildInfo;
  /** {@link SchemaQueries.typeTable} of `info.type`, or null when the child has no type. */
  readonly table: TypeTable | null;
  /** What the child's text refers to (its element-level refType over its type's), or null when nothing. */
  readonly text: TextReference | null;
}

/**
 * The per-element questions of extraction for one type, precomputed: an element's attributes and
 * children are each one lookup by name (the tokenizer's shared name strings keep their hash), instead of
 * a type lookup, an attribute lookup and a composed-key lookup per attribute. Answers equal the
 * {@link SchemaQueries} methods named on each member.
 */
export interface TypeTable {
  /** The type name as asked (canonical when it came from the schema). */
  readonly type: string;
  /** Declared attributes by name ({@link SchemaQueries.attribute} and {@link SchemaQueries.runtimeName}). */
  readonly attributes: ReadonlyMap<string, AttributeFacts>;
  /** {@link SchemaQueries.defaultReferences}. */
  readonly defaults: readonly AttributeInfo[];
  /** {@link SchemaQueries.isAssetType}. */
  readonly isAsset: boolean;
  /** What the text of an element of this type (without an element-level refType) refers to, or null. */
  readonly text: TextReference | null;
  /** Child `local` in an element of this type ({@link SchemaQueries.childElementType}), or null. */
  child(local: string): ChildFacts | null;
}

/** Queries over a loaded model (implemented by `Schema` in `src/schema/schema.ts`). */
export interface SchemaQueries {
  readonly model: SchemaModel;
  /** Canonical spelling of a type or element name (case-insensitive), or null when unknown. */
  canonicalType(name: string): string | null;
  /** `type`, its base, its base's base … (canonical, cycle-safe). Unknown type ⇒ `[type]`. */
  typeChain(type: string): readonly string[];
  /** `wanted` is null, equal to `actual`, or in `typeChain(actual)`. Unknown types match only exactly. */
  isAssignable(actual: string, wanted: string | null): boolean;
  /** The chain contains `BaseAssetType`. */
  isAssetType(type: string): boolean;
  /** Type of a document's root element named `local` (asset element first, then global map). */
  rootElementType(local: string): string | null;
  /** Type of child `local` inside an element of type `parentType` (context first, then global map). */
  childElementType(parentType: string | null, local: string): ChildInfo | null;
  /** Attribute `name` of `type` after expansion, or null. */
  attribute(type: string, name: string): AttributeInfo | null;
  /** What the text content of an element of `type` is, when it is simple content. */
  content(type: string): ValueInfo | null;
  /**
   * The attributes of `type` that are references (not Poids) with a non-empty XSD default (`default`,
   * `fixed` or the SDK's `XmlEdit:Default`): the compiler fills the default in for an element that omits
   * the attribute, so the omission is a reference too. Empty for unknown types.
   */
  defaultReferences(type: string): readonly AttributeInfo[];
  /**
   * The asset type the engine looks a plain-string `attribute` of `type` up as, at run time (the table in
   * `runtime-names.ts`; a derived type inherits its base's entries), or null.
   */
  runtimeName(type: string, attribute: string): string | null;
  /** `local` is declared anywhere in the schema as an element name. */
  isKnownElement(local: string): boolean;
  /** Domain-spec §9.1 designed-to-be-referenced type. */
  isDesignedTarget(type: string): boolean;
  /** The precomputed {@link TypeTable} of `type` (any name: an unknown or simple type declares nothing). */
  typeTable(type: string): TypeTable;
  /** Child `local` of an element without a type ({@link childElementType} with a null parent), or null. */
  untypedChild(local: string): ChildFacts | null;
}
