/**
 * Per-file records: everything the linker needs from one file, extracted once from that file's bytes
 * (and the schema). A record never refers to another file's content, so it can be cached in a snapshot
 * and reused until the file's stamp changes. Offsets are into the decoded text; lines and columns are
 * 1-based.
 */

export type FileKind =
  /** fully parsed XML */
  | "xml"
  /** shallow-scanned art (`.w3x`, or XML sniffed behind another extension) */
  | "art"
  /** a binary or non-XML file reached by an include: registered, never parsed */
  | "binary"
  /** SAGE string table */
  | "str"
  /** BinaryAssetBuilder project */
  | "babproj"
  /** precompiled binary manifest */
  | "manifest";

export type IncludeType = "all" | "instance" | "reference";
export type Severity = "error" | "warning" | "information";

/** A diagnostic inside one file (the file is implied by the record holding it). */
export interface RecordDiagnostic {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

/**
 * Diagnostics a record holds at most of one code and severity (the first ones, in document order); the rest
 * are counted in {@link FileRecord.omittedDiagnostics}. The same number as the output's cap per file and
 * code (`DIAGNOSTIC_CAPS.perCode`), so what a record drops is never listed anyway: a file with 10^6 unknown
 * elements holds 200 diagnostic objects and one count instead of 10^6 objects.
 */
export const RECORD_DIAGNOSTIC_CAP = 200;

/** The diagnostics of one code and severity a record counts but does not hold (beyond {@link RECORD_DIAGNOSTIC_CAP}). */
export interface OmittedDiagnostics {
  readonly code: string;
  readonly severity: Severity;
  readonly count: number;
  /** Position of the first one not held. */
  readonly line: number;
  readonly column: number;
}

export interface AssetDecl {
  /** Local name of the element as written (prefix stripped). */
  readonly type: string;
  readonly id: string;
  /** Position of the id attribute's value. */
  readonly line: number;
  readonly column: number;
  /** Line range of the whole element. */
  readonly startLine: number;
  readonly endLine: number;
  /** Offsets of the whole element in the decoded text (for showing source). */
  readonly start: number;
  readonly end: number;
  /** Raw `inheritFrom` value, or null. */
  readonly inheritFrom: string | null;
}

export interface DefineDecl {
  readonly name: string;
  readonly value: string;
  readonly line: number;
  readonly column: number;
}

export interface IncludeDecl {
  /** null when the `type` attribute is missing or not one of the three. */
  readonly type: IncludeType | null;
  readonly rawType: string | null;
  readonly source: string;
  readonly line: number;
  readonly column: number;
}

export interface XIncludeDecl {
  /** The target as written; empty when the include has only an `xpointer` (XInclude 1.0: the same document). */
  readonly href: string;
  readonly xpointer: string | null;
  /** A direct child of the document root. */
  readonly rootLevel: boolean;
  /** Index of the enclosing top-level asset in `assets`, or -1. */
  readonly owner: number;
  /** Offset of the xi:include element (to locate it inside fragment ranges). */
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  /**
   * The schema type of the element the xi:include sits in (what the spliced elements are typed against),
   * or null (no schema, an untyped parent, the document root).
   */
  readonly parentType: string | null;
  /** The local name of that element, or null at the document root. */
  readonly parent: string | null;
}

/**
 * How a reference is made:
 * - `attribute`, `content`, `inheritFrom`: written (an attribute value, an element's text, `inheritFrom`);
 * - `default`: not written — the XSD default of a reference attribute the element omits, which the
 *   compiler fills in (the site is the element's start tag);
 * - `name`: a plain-string value the engine looks up by id at run time (the schema layer's table of
 *   such contexts; kept only when it names an asset of a plausible type);
 * - `heuristic`: a value that looks like an id, without a schema (kept only when it resolves);
 * - `manifest`: a compiled manifest's dependency pair with no XML site.
 */
export type ReferenceKind = "attribute" | "content" | "inheritFrom" | "default" | "name" | "heuristic" | "manifest";

/** Every reference kind, in the order answers list them. */
export const REFERENCE_KINDS: readonly ReferenceKind[] = [
  "attribute",
  "content",
  "inheritFrom",
  "default",
  "name",
  "manifest",
  "heuristic",
];

/** A place where a value names another asset (resolved later by the linker). */
export interface RefRecord {
  /** Index of the enclosing top-level asset in `assets`, or -1 (fragments, files without assets). */
  readonly owner: number;
  readonly kind: ReferenceKind;
  /** The raw token as written (one token of a list), possibly `Type:Id`. */
  readonly value: string;
  /** The schema's referenced type, or null (untyped reference: matches any type). */
  readonly refType: string | null;
  /** For `inheritFrom`: the element's own type (candidates must be assignable to it). */
  readonly selfType: string | null;
  readonly element: string;
  readonly parent: string | null;
  readonly attribute: string | null;
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** A pipeline-local (Poid) reference: resolved only within the enclosing object. */
export interface PoidRef {
  readonly owner: number;
  readonly value: string;
  readonly element: string;
  readonly attribute: string;
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** A nested element carrying an `id` (module tags, nuggets …): pipeline-local, not a global asset. */
export interface LocalId {
  readonly owner: number;
  readonly element: string;
  readonly id: string;
  readonly offset: number;
  readonly line: number;
}

/** A value naming a string-table entry (e.g. `DisplayName="Name:MyTank"`), for display-name search. */
export interface StringKeyUse {
  readonly owner: number;
  readonly key: string;
  readonly element: string;
  readonly attribute: string | null;
  readonly line: number;
}

export interface DefineUse {
  readonly owner: number;
  readonly name: string;
  readonly element: string;
  readonly attribute: string | null;
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** Where an element of a given local name first occurs (for `xpointer(/n:Name/child::*)`). */
export interface ElementRange {
  readonly local: string;
  /** Offset just after the start tag (children begin here). */
  readonly start: number;
  /** Offset of the end tag. */
  readonly end: number;
  readonly line: number;
  /** Direct children of this element that carry an `id` (root-level xi:include assets). */
  readonly idChildren: readonly {
    readonly type: string;
    readonly id: string;
    readonly line: number;
    readonly column: number;
    readonly offset: number;
    /** The child element's own range (its references belong to the asset it becomes). */
    readonly start: number;
    readonly end: number;
  }[];
}

export interface StringEntry {
  readonly key: string;
  readonly text: string;
  readonly line: number;
}

export interface ManifestAssetRecord {
  readonly type: string;
  readonly id: string;
  readonly typeId: number;
  readonly instanceId: number;
  readonly sourceFile: string;
}

/**
 * A babproj `<StreamReference>`: within the stream built from `stream`, a `reference` include of
 * `name` is answered by the prebuilt `manifest` (paths as written, often on another machine).
 */
export interface StreamReferenceDecl {
  readonly stream: string;
  readonly name: string;
  readonly manifest: string;
}

export interface FileRecord {
  readonly kind: FileKind;
  /** Local name of the root element (xml/art), or null. */
  readonly rootName: string | null;
  /** The root element is not `AssetDeclaration` (an xi:include target, not a document of its own). */
  readonly fragment: boolean;
  /**
   * Not asset XML: the root is not `AssetDeclaration` and not in the asset namespace (Lua script-event
   * sections, build file sets, other namespaces). Read for its structure only: no schema warnings, no
   * references.
   */
  readonly foreign: boolean;
  readonly assets: readonly AssetDecl[];
  readonly defines: readonly DefineDecl[];
  readonly includes: readonly IncludeDecl[];
  readonly xincludes: readonly XIncludeDecl[];
  readonly refs: readonly RefRecord[];
  readonly poidRefs: readonly PoidRef[];
  readonly localIds: readonly LocalId[];
  readonly defineUses: readonly DefineUse[];
  readonly stringKeys: readonly StringKeyUse[];
  /** First occurrence of each element name (fragments: all names; documents: root and its children). */
  readonly ranges: readonly ElementRange[];
  readonly diagnostics: readonly RecordDiagnostic[];
  /**
   * Per code and severity, the diagnostics beyond the first {@link RECORD_DIAGNOSTIC_CAP} (counted, not held),
   * in the order of their first occurrence; empty for nearly every file.
   */
  readonly omittedDiagnostics: readonly OmittedDiagnostics[];
  /** String tables only. */
  readonly strings: readonly StringEntry[];
  /** Manifests only. */
  readonly manifestAssets: readonly ManifestAssetRecord[];
  /** Manifests only: `[fromAssetIndex, typeId, instanceId]` triples flattened. */
  readonly manifestRefs: readonly number[];
  /** babproj only: the stream source paths as written. */
  readonly streamSources: readonly string[];
  /** babproj only: the manifests its streams name for their `reference` includes. */
  readonly streamReferences: readonly StreamReferenceDecl[];
  /** Number of lines (xml/art/str), for bounds when showing source. */
  readonly lineCount: number;
  /**
   * The decoded text, kept for the files xi:include splices from: fragments (each splice types their
   * elements by its own context, at link time) and documents whose xi:includes name the document itself.
   * Null otherwise.
   */
  readonly spliceText: string | null;
}

/** The one empty list every record shares (records are never mutated). */
export const EMPTY: readonly never[] = Object.freeze([]);

/** An empty record of `kind`, to be filled by the extractors. */
export function emptyRecord(kind: FileKind): FileRecord {
  return {
    kind,
    rootName: null,
    fragment: false,
    foreign: false,
    assets: EMPTY,
    defines: EMPTY,
    includes: EMPTY,
    xincludes: EMPTY,
    refs: EMPTY,
    poidRefs: EMPTY,
    localIds: EMPTY,
    defineUses: EMPTY,
    stringKeys: EMPTY,
    ranges: EMPTY,
    diagnostics: EMPTY,
    omittedDiagnostics: EMPTY,
    strings: EMPTY,
    manifestAssets: EMPTY,
    manifestRefs: EMPTY,
    streamSources: EMPTY,
    streamReferences: EMPTY,
    lineCount: 0,
    spliceText: null,
  };
}
