/**
 * Unreferenced project assets (`find_unreferenced`, `ra3 unreferenced`): compiled project definitions
 * (not only through instance includes, whose unreferenced assets the builder drops anyway) that no
 * reference site of the build — in a compiled or referenced file, or a prebuilt manifest — resolves to,
 * restricted to types designed to be referenced (domain-spec §9). Every kind of reference counts as a use:
 * written ones, XSD defaults, runtime names, manifest pairs. What the index cannot see is said: without
 * an SDK, vanilla assets (and so their references) are not indexed, and an asset that overrides a vanilla
 * one (`overridesVanilla`) may be used by them; those are left out unless asked for.
 */
import { displayPath, isInside } from "../project/paths.ts";
import type { AssetDef, LinkedIndex } from "../index/linked.ts";
import { assetTypeName, clampLimit } from "./assets.ts";
import { decodeCursor, encodeCursor, suggest } from "./present.ts";
import { queryError, type QueryResult } from "./envelope.ts";

export interface UnreferencedResult {
  readonly type: string | null;
  readonly total: number;
  /** Count per type, for an overview. */
  readonly byType: readonly { readonly type: string; readonly count: number }[];
  readonly items: readonly {
    readonly type: string;
    readonly id: string;
    readonly file: string;
    readonly line: number;
    /** The id is also a vanilla asset's (the project overrides it): vanilla assets may reference it. */
    readonly overridesVanilla: boolean;
  }[];
  readonly nextCursor: string | null;
  /** How "designed to be referenced" was decided. */
  readonly rule: "schema" | "heuristic";
  /** Overrides of vanilla assets left out (project-only mode, unless `includeOverrides`). */
  readonly overridesLeftOut: number;
  /** What the answer cannot see, one sentence (project-only mode), or null. */
  readonly caveat: string | null;
}

/**
 * Compiled project assets nothing references (sites in files no entry point includes do not count),
 * grouped by type and sorted by id.
 * Without a schema every type that is referenced somewhere in the project counts as designed to be referenced.
 */
export function unreferenced(
  linked: LinkedIndex,
  options: { type?: string | null; includeOverrides?: boolean | null; limit?: number | null; cursor?: string | null } =
    {},
): QueryResult<UnreferencedResult> {
  const offset = options.cursor ? decodeCursor(options.cursor) : 0;
  if (offset === null) {
    return queryError("bad_argument", "the cursor is not valid; pass the nextCursor of a previous answer or omit it");
  }
  const limit = clampLimit(options.limit);
  const schema = linked.schema;
  let onlyType: string | null = null;
  if (options.type?.trim()) {
    const t = options.type.trim();
    onlyType = assetTypeName(linked, t);
    if (!onlyType) {
      return queryError("bad_argument", `"${t}" is not an asset type of this index`, {
        suggestions: suggest(t, linked.byType.keys()),
      });
    }
  }
  const referencedTypes = new Set<string>();
  if (!schema) { for (const s of linked.sites) for (const t of s.targets) referencedTypes.add(linked.assets[t].type); }
  const designed = (
    type: string,
  ) => (schema ? schema.isDesignedTarget(type) || designedByBase(linked, type) : referencedTypes.has(type));

  const projectOnly = linked.sdkDir === null;
  const keepOverrides = !projectOnly || options.includeOverrides === true;
  let overridesLeftOut = 0;
  const items: AssetDef[] = [];
  for (const a of linked.assets) {
    if (a.origin !== "project" || a.viaInstance || a.state !== "compiled" || !isInside(a.file, linked.projectDir)) {
      continue;
    }
    if (onlyType && a.type !== onlyType) continue;
    if (!designed(a.type)) continue;
    const sites = linked.referencedBy.get(a.index) ?? [];
    if (sites.some((i) => linked.sites[i].state !== "not-included" && linked.sites[i].from !== a.index)) continue;
    if (!keepOverrides && overridesVanilla(linked, a)) {
      overridesLeftOut++;
      continue;
    }
    items.push(a);
  }
  items.sort((x, y) =>
    (x.type < y.type ? -1 : x.type > y.type ? 1 : 0) || x.id.toLowerCase().localeCompare(y.id.toLowerCase())
  );
  const byType = new Map<string, number>();
  for (const a of items) byType.set(a.type, (byType.get(a.type) ?? 0) + 1);
  return {
    type: onlyType,
    total: items.length,
    byType: [...byType].map(([type, count]) => ({ type, count })),
    items: items.slice(offset, offset + limit).map((a) => ({
      type: a.type,
      id: a.id,
      file: displayPath(linked, a.file),
      line: a.line,
      overridesVanilla: overridesVanilla(linked, a),
    })),
    nextCursor: offset + limit < items.length ? encodeCursor(offset + limit) : null,
    rule: schema ? "schema" : "heuristic",
    overridesLeftOut,
    caveat: projectOnly
      ? `project-only mode: vanilla assets are not indexed without --sdk, so what vanilla assets reference is not seen${
        overridesLeftOut
          ? `; ${overridesLeftOut} asset${
            overridesLeftOut === 1 ? " that overrides" : "s that override"
          } a vanilla asset ${overridesLeftOut === 1 ? "is" : "are"} left out (vanilla assets may reference ${
            overridesLeftOut === 1 ? "it" : "them"
          }; includeOverrides lists ${overridesLeftOut === 1 ? "it" : "them"})`
          : ""
      }`
      : null,
  };
}

/**
 * `a` overrides a vanilla asset: the index holds a vanilla definition of the same type and id (SDK XML or
 * a compiled manifest), or `a` inherits from its own id — the idiom for extending the vanilla copy, whose
 * target is not indexed without the SDK.
 */
function overridesVanilla(linked: LinkedIndex, a: AssetDef): boolean {
  if (
    a.inheritFrom !== null &&
    a.inheritFrom.slice(a.inheritFrom.lastIndexOf(":") + 1).toLowerCase() === a.id.toLowerCase()
  ) {
    return true;
  }
  return linked.findAssets(a.id, null).some((d) => d.type === a.type && d.origin !== "project");
}

/**
 * A concrete subtype of a designed target base (W3DContainer for BaseRenderAssetType, AudioEvent for
 * BaseAudioEventInfo) is a target too: references name the base type, definitions the concrete one.
 */
function designedByBase(linked: LinkedIndex, type: string): boolean {
  const schema = linked.schema!;
  for (const t of schema.typeChain(type)) {
    if (t !== type && schema.isDesignedTarget(t) && t !== "BaseAssetType" && t !== "BaseInheritableAsset") return true;
  }
  return false;
}
