/**
 * Queries over a loaded {@link SchemaModel}: case-insensitive type names, inheritance chains,
 * assignability and context-aware element typing (domain-spec §6.2–6.3). Everything the indexer asks
 * per element or attribute is a map lookup; chains are computed once per type and cached.
 */
import type {
  AttributeFacts,
  AttributeInfo,
  AttributeReading,
  ChildFacts,
  ChildInfo,
  ComplexTypeInfo,
  SchemaModel,
  SchemaQueries,
  SimpleTypeInfo,
  TextReference,
  TypeTable,
  ValueInfo,
} from "./model.ts";
import { RUNTIME_NAMES } from "./runtime-names.ts";

/** Namespace of mod asset XML (`<AssetDeclaration xmlns="uri:ea.com:eala:asset">`). */
const ASSET_NAMESPACE = "uri:ea.com:eala:asset";

/**
 * True when an element in namespace `uri` is typed by the schema: the asset namespace, or none at all
 * (fragments sometimes omit it). `xi:*` and every other namespace are foreign.
 * @example isSchemaElementNamespace("http://www.w3.org/2001/XInclude") // false
 */
export function isSchemaElementNamespace(uri: string): boolean {
  return uri === ASSET_NAMESPACE || uri === "";
}

/**
 * True when an attribute written `qname` can be an XSD-declared attribute: unprefixed and not
 * `xmlns`. `xai:joinAction`, `xi:*`, `xml:*`, `xsi:*`, `xmlns:*` are not.
 * @example isSchemaAttributeName("xai:joinAction") // false
 */
export function isSchemaAttributeName(qname: string): boolean {
  return qname !== "xmlns" && !qname.includes(":");
}

const BASE_ASSET_TYPE = "BaseAssetType";

/** `rec[key]` when `key` is an own property (a schema may declare `constructor` or `toString`). */
function own<T>(rec: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(rec, key) ? rec[key] : undefined;
}

/** A complex type with Map indexes of its expanded children and attributes (built on first use). */
interface IndexedType {
  readonly info: ComplexTypeInfo;
  children: Map<string, ChildInfo> | null;
  attributes: Map<string, AttributeInfo> | null;
  /** The reference attributes with a default (see {@link Schema.defaultReferences}). */
  defaults: readonly AttributeInfo[] | null;
}

const NO_ATTRIBUTES: readonly AttributeInfo[] = Object.freeze([]);
const NO_DECLARED: Readonly<Record<string, AttributeInfo>> = Object.freeze({});

function toMap<T>(rec: Readonly<Record<string, T>>): Map<string, T> {
  const m = new Map<string, T>();
  for (const k of Object.keys(rec)) m.set(k, rec[k]);
  return m;
}

/**
 * Children looked up per table at most (misses included): a document can name any number of unknown
 * elements, and a table lives as long as its schema. Past this, answers are computed, not kept.
 */
const CHILDREN_PER_TABLE = 4096;

/** A {@link TypeTable}: attributes built when the table is, children on first lookup. */
class SchemaTypeTable implements TypeTable {
  readonly attributes: ReadonlyMap<string, AttributeFacts>;
  readonly defaults: readonly AttributeInfo[];
  readonly isAsset: boolean;
  readonly text: TextReference | null;
  private readonly children = new Map<string, ChildFacts | null>();

  constructor(private readonly schema: Schema, readonly type: string) {
    const attributes = new Map<string, AttributeFacts>();
    const declared = schema.declaredAttributes(type);
    for (const name of Object.keys(declared)) attributes.set(name, schema.attributeFacts(type, declared[name]));
    this.attributes = attributes;
    this.defaults = schema.defaultReferences(type);
    this.isAsset = schema.isAssetType(type);
    this.text = schema.textReference(type, null);
  }

  child(local: string): ChildFacts | null {
    let hit = this.children.get(local);
    if (hit === undefined) {
      hit = this.schema.childFacts(this.schema.childElementType(this.type, local));
      if (this.children.size < CHILDREN_PER_TABLE) this.children.set(local, hit);
    }
    return hit;
  }
}

/** The {@link SchemaQueries} implementation. */
export class Schema implements SchemaQueries {
  /** Complex types by exact (canonical) name: the per-element/attribute hot path. */
  private readonly complexIndex = new Map<string, IndexedType>();
  private readonly resolvedIndex = new Map<string, IndexedType | null>();
  /** Lower-cased type name → canonical (complex and simple types). */
  private readonly typeNames = new Map<string, string>();
  /** Lower-cased element name → canonical (asset kinds and every declared element name). */
  private readonly elementNames = new Map<string, string>();
  /** Element names as declared (XML names are case-sensitive: BAB rejects `<gameobject>`). */
  private readonly exactElementNames = new Set<string>();
  private readonly chains = new Map<string, readonly string[]>();
  private readonly chainSets = new Map<string, ReadonlySet<string>>();
  /** Fallback ChildInfo per element name (first declaration carrying the fallback type). */
  private readonly fallbackChildren = new Map<string, ChildInfo>();
  private readonly targets: ReadonlySet<string>;
  private readonly builtinValues = new Map<string, ValueInfo>();
  /**
   * Type → attribute → the runtime-name target (see `runtime-names.ts`), for the table's own types (a
   * type deriving from one inherits its entries). By type first: a type table asks this for each plain
   * attribute along the type's chain, and a composed `type\0attribute` key per step cost a string each.
   */
  private readonly runtimeNames = new Map<string, Map<string, string>>();
  /** {@link typeTable} by the type name asked (bounded like the children of a table). */
  private readonly tables = new Map<string, TypeTable>();
  /** {@link untypedChild} by local name (bounded). */
  private readonly untypedChildren = new Map<string, ChildFacts | null>();

  constructor(readonly model: SchemaModel) {
    for (const n of Object.keys(model.complexTypes)) {
      this.complexIndex.set(n, { info: model.complexTypes[n], children: null, attributes: null, defaults: null });
    }
    for (const n of Object.keys(model.complexTypes)) this.typeNames.set(n.toLowerCase(), n);
    for (const n of Object.keys(model.simpleTypes)) {
      if (!this.typeNames.has(n.toLowerCase())) this.typeNames.set(n.toLowerCase(), n);
    }
    for (const n of model.assetElements) this.elementNames.set(n.toLowerCase(), n);
    for (const n of Object.keys(model.globalElements)) {
      if (!this.elementNames.has(n.toLowerCase())) this.elementNames.set(n.toLowerCase(), n);
    }
    for (const n of [...model.assetElements, ...Object.keys(model.globalElements)]) this.exactElementNames.add(n);
    for (const t of Object.values(model.complexTypes)) {
      for (const c of Object.values(t.children)) {
        this.exactElementNames.add(c.name);
        if (!this.elementNames.has(c.name.toLowerCase())) this.elementNames.set(c.name.toLowerCase(), c.name);
        if (!this.fallbackChildren.has(c.name) && own(model.globalElements, c.name) === c.type) {
          this.fallbackChildren.set(c.name, { ...c, fallback: true });
        }
      }
    }
    this.targets = new Set(model.designedTargets.map((t) => t.toLowerCase()));
    for (const r of RUNTIME_NAMES) {
      const type = this.typeNames.get(r.type.toLowerCase());
      const target = this.typeNames.get(r.target.toLowerCase());
      // An entry whose types this schema set does not declare does not apply to it.
      if (!type || !target) continue;
      let byAttribute = this.runtimeNames.get(type);
      if (!byAttribute) this.runtimeNames.set(type, byAttribute = new Map());
      byAttribute.set(r.attribute, target);
    }
  }

  /** Canonical spelling of a type name, else of an element name (both case-insensitive), else null. */
  canonicalType(name: string): string | null {
    const lower = name.toLowerCase();
    return this.typeNames.get(lower) ?? this.elementNames.get(lower) ?? null;
  }

  private complexType(name: string): ComplexTypeInfo | undefined {
    return this.indexed(name)?.info;
  }

  /** Exact name first (what the indexer passes), then case-insensitively. */
  private indexed(name: string): IndexedType | undefined {
    const hit = this.complexIndex.get(name);
    if (hit !== undefined) return hit;
    // Simple types and other spellings miss the exact lookup: remember the answer (misses too).
    let resolved = this.resolvedIndex.get(name);
    if (resolved === undefined) {
      resolved = this.complexIndex.get(this.typeNames.get(name.toLowerCase()) ?? "") ?? null;
      this.resolvedIndex.set(name, resolved);
    }
    return resolved ?? undefined;
  }

  private simpleType(name: string): SimpleTypeInfo | undefined {
    const types = this.model.simpleTypes;
    return own(types, name) ?? own(types, this.typeNames.get(name.toLowerCase()) ?? "");
  }

  typeChain(type: string): readonly string[] {
    const canonical = this.typeNames.get(type.toLowerCase());
    if (canonical === undefined) return [type];
    const cached = this.chains.get(canonical);
    if (cached) return cached;
    const chain: string[] = [];
    const seen = new Set<string>();
    for (let t: string | null = canonical; t !== null && !seen.has(t.toLowerCase());) {
      seen.add(t.toLowerCase());
      chain.push(t);
      const base: string | null = this.complexType(t)?.base ?? this.simpleType(t)?.base ?? null;
      t = base === null ? null : this.typeNames.get(base.toLowerCase()) ?? base;
    }
    this.chains.set(canonical, chain);
    // Canonical and lower-cased spellings, so canonical queries (the common case) skip toLowerCase.
    this.chainSets.set(canonical, new Set([...chain, ...chain.map((c) => c.toLowerCase())]));
    return chain;
  }

  isAssignable(actual: string, wanted: string | null): boolean {
    if (wanted === null || actual === wanted) return true;
    let chain = this.chainSets.get(actual);
    if (chain === undefined) {
      const canonical = this.typeNames.get(actual.toLowerCase());
      if (canonical === undefined) return actual.toLowerCase() === wanted.toLowerCase();
      this.typeChain(canonical);
      chain = this.chainSets.get(canonical)!;
      this.chainSets.set(actual, chain);
    }
    return chain.has(wanted) || chain.has(wanted.toLowerCase());
  }

  isAssetType(type: string): boolean {
    return this.isAssignable(type, BASE_ASSET_TYPE);
  }

  rootElementType(local: string): string | null {
    return own(this.model.assetElementTypes, local) ?? own(this.model.globalElements, local) ?? null;
  }

  childElementType(parentType: string | null, local: string): ChildInfo | null {
    if (parentType !== null) {
      const parent = this.indexed(parentType);
      if (parent) {
        parent.children ??= toMap(parent.info.children);
        const declared = parent.children.get(local);
        if (declared) return declared;
      }
    }
    return this.fallbackChild(local);
  }

  private fallbackChild(local: string): ChildInfo | null {
    const hit = this.fallbackChildren.get(local);
    if (hit) return hit;
    const type = own(this.model.globalElements, local);
    if (type === undefined) return null;
    const info: ChildInfo = {
      name: local,
      type,
      minOccurs: 0,
      maxOccurs: -1,
      refType: null,
      content: this.content(type),
      fallback: true,
    };
    this.fallbackChildren.set(local, info);
    return info;
  }

  attribute(type: string, name: string): AttributeInfo | null {
    const t = this.indexed(type);
    if (!t) return null;
    t.attributes ??= toMap(t.info.attributes);
    return t.attributes.get(name) ?? null;
  }

  content(type: string): ValueInfo | null {
    const c = this.complexType(type);
    if (c) return c.content;
    const s = this.simpleType(type);
    if (s) return s;
    if (type.startsWith("xs:")) return this.builtin(type);
    return null;
  }

  private builtin(type: string): ValueInfo {
    let v = this.builtinValues.get(type);
    if (!v) {
      v = {
        typeName: type,
        refType: null,
        isRef: false,
        isWeakRef: false,
        isPoid: false,
        isList: type === "xs:NMTOKENS" || type === "xs:IDREFS" || type === "xs:ENTITIES",
        enumValues: [],
        allowsDefine: false,
        isBoolean: type === "xs:boolean",
      };
      this.builtinValues.set(type, v);
    }
    return v;
  }

  defaultReferences(type: string): readonly AttributeInfo[] {
    const t = this.indexed(type);
    if (!t) return NO_ATTRIBUTES;
    if (t.defaults === null) {
      const list = Object.values(t.info.attributes).filter((a) =>
        (a.refType !== null || a.isRef) && !a.isPoid && a.defaultValue !== null && a.defaultValue.trim() !== ""
      );
      t.defaults = list.length ? list : NO_ATTRIBUTES;
    }
    return t.defaults;
  }

  runtimeName(type: string, attribute: string): string | null {
    if (this.runtimeNames.size === 0) return null;
    for (const t of this.typeChain(type)) {
      const target = this.runtimeNames.get(t)?.get(attribute);
      if (target !== undefined) return target;
    }
    return null;
  }

  isKnownElement(local: string): boolean {
    return this.exactElementNames.has(local);
  }

  isDesignedTarget(type: string): boolean {
    return this.targets.has(type.toLowerCase());
  }

  typeTable(type: string): TypeTable {
    let table = this.tables.get(type);
    if (table === undefined) {
      table = new SchemaTypeTable(this, type);
      if (this.tables.size < CHILDREN_PER_TABLE) this.tables.set(type, table);
    }
    return table;
  }

  untypedChild(local: string): ChildFacts | null {
    let hit = this.untypedChildren.get(local);
    if (hit === undefined) {
      hit = this.childFacts(this.childElementType(null, local));
      if (this.untypedChildren.size < CHILDREN_PER_TABLE) this.untypedChildren.set(local, hit);
    }
    return hit;
  }

  /** The expanded attributes of `type` by name (none for a simple or unknown type). For {@link SchemaTypeTable}. */
  declaredAttributes(type: string): Readonly<Record<string, AttributeInfo>> {
    return this.indexed(type)?.info.attributes ?? NO_DECLARED;
  }

  /** How an attribute `info` of `type` is read. For {@link SchemaTypeTable}. */
  attributeFacts(type: string, info: AttributeInfo): AttributeFacts {
    const isReference = info.refType !== null || info.isRef;
    const runtimeTarget = isReference ? null : this.runtimeName(type, info.name);
    const reading: AttributeReading = isReference
      ? (info.isPoid ? "poid" : "reference")
      : runtimeTarget !== null
      ? "runtime-name"
      : "plain";
    const ownTypeIsTarget = info.refType === null || this.isAssignable(type, info.refType);
    return { info, reading, runtimeTarget, ownTypeIsTarget };
  }

  /** The facts of a child declaration (null stays null). For {@link SchemaTypeTable}. */
  childFacts(info: ChildInfo | null): ChildFacts | null {
    if (info === null) return null;
    return {
      info,
      table: info.type === null ? null : this.typeTable(info.type),
      text: this.textReference(info.type, info.refType),
    };
  }

  /**
   * What the text of an element of `type` with the element-level refType `elementRefType` refers to:
   * the element's refType (unless its type is a Poid) over its type's content, null when neither names
   * an asset type.
   */
  textReference(type: string | null, elementRefType: string | null): TextReference | null {
    if (elementRefType) {
      const info = type ? this.content(type) : null;
      if (info?.isPoid) return null;
      return { refType: elementRefType, isList: info?.isList ?? false };
    }
    if (!type) return null;
    const info = this.content(type);
    return !info || !info.refType || info.isPoid ? null : { refType: info.refType, isList: info.isList };
  }
}
