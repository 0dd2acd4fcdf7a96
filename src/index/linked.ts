/**
 * The linked index: the immutable result of linking every file record. Queries read only this.
 * Everything is plain arrays and maps built once per link; nothing here is mutated after publication.
 */
import type { IncludeType, ReferenceKind, Severity } from "./records.ts";

export type Origin = "project" | "sdk" | "manifest";

export interface AssetDef {
  /** Index in `LinkedIndex.assets`. */
  readonly index: number;
  /** Canonical type name (schema spelling when known, else as written). */
  readonly type: string;
  readonly id: string;
  /** Absolute path of the defining file (the manifest for manifest assets). */
  readonly file: string;
  /** 1-based line of the id (0 for manifest assets). */
  readonly line: number;
  readonly column: number;
  readonly startLine: number;
  readonly endLine: number;
  readonly origin: Origin;
  /** Streams whose walk reached the defining file (empty when inactive). */
  readonly streams: readonly string[];
  readonly active: boolean;
  /** Reached only through `instance` includes (visible to the compiler, not compiled into the stream). */
  readonly viaInstance: boolean;
  /** Raw inheritFrom value, or null. */
  readonly inheritFrom: string | null;
  /** Manifest assets: the source file recorded by the compiler (e.g. `DATA:globaldata/weapon.xml`). */
  readonly manifestSource: string | null;
  /** The asset came from a root-level xi:include container (attributed to the fragment file). */
  readonly viaXInclude: boolean;
  /** Index of the record-level asset in its file (-1 for manifest and xi assets). */
  readonly recordIndex: number;
}

export type ReferenceStatus =
  /** at least one matching definition */
  | "resolved"
  /** the id exists, but only with types the reference does not accept */
  | "wrong_type"
  /** no asset has this id */
  | "not_found";

export interface ReferenceSite {
  readonly index: number;
  /** The asset the site belongs to (index into assets), or -1 (outside any asset). */
  readonly from: number;
  readonly kind: ReferenceKind;
  /** The token as written, possibly `Type:Id`. */
  readonly value: string;
  /** The id looked up (last `:` segment of `value`). */
  readonly id: string;
  readonly refType: string | null;
  readonly selfType: string | null;
  readonly element: string;
  readonly parent: string | null;
  readonly attribute: string | null;
  /** File holding the site (for a spliced fragment: the fragment file). */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Matching definitions (indexes into assets), best first. */
  readonly targets: readonly number[];
  readonly status: ReferenceStatus;
  /** The site is in an active file (or spliced into an active asset). */
  readonly active: boolean;
  /** Spliced in through this xi:include chain (fragment sites), else null. */
  readonly via: string | null;
}

export interface IncludeEdge {
  readonly from: string;
  /** Resolved target (real casing), or null when it could not be resolved. */
  readonly to: string | null;
  readonly source: string;
  readonly type: IncludeType | "xi";
  readonly line: number;
  readonly column: number;
  /** The written path differs from the on-disk casing. */
  readonly caseFixed: boolean;
}

export interface DefineDef {
  readonly name: string;
  readonly value: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly origin: Origin;
  readonly active: boolean;
}

export interface Diagnostic {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  /** Absolute path, or null for index-wide diagnostics. */
  readonly file: string | null;
  readonly line: number;
  readonly column: number;
}

export type FileKindLinked = "xml" | "art" | "binary" | "str" | "babproj" | "manifest" | "missing";

export interface FileInfo {
  readonly path: string;
  readonly kind: FileKindLinked;
  readonly origin: Origin;
  readonly active: boolean;
  readonly streams: readonly string[];
  /** Reached only through instance includes. */
  readonly viaInstance: boolean;
  readonly fragment: boolean;
  readonly rootName: string | null;
  readonly assetCount: number;
}

export interface StreamInfo {
  readonly name: string;
  readonly entry: string;
  readonly layer: "project" | "sdk";
  readonly files: number;
  readonly manifests: readonly string[];
}

export interface LinkStats {
  readonly files: number;
  readonly projectFiles: number;
  readonly activeFiles: number;
  readonly assets: number;
  readonly sdkAssets: number;
  readonly references: number;
  readonly resolvedReferences: number;
  readonly externalReferences: number;
  readonly defines: number;
  readonly diagnostics: number;
  readonly linkMs: number;
}

export interface StringDef {
  readonly key: string;
  readonly text: string;
  readonly file: string;
  readonly line: number;
}

export interface StringUse {
  /** Index of the asset whose field holds the key. */
  readonly asset: number;
  readonly element: string;
  readonly attribute: string | null;
  readonly line: number;
}

/** A Poid attribute (e.g. `UpdateModuleId`) and the module of its own object it names, if found. */
export interface PoidSite {
  readonly from: number;
  readonly value: string;
  readonly element: string;
  readonly attribute: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** The module element carrying that id (possibly in a spliced fragment), or null (no diagnostic: modules may come from elsewhere). */
  readonly target: { readonly element: string; readonly file: string; readonly line: number } | null;
}
