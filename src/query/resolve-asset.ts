/**
 * Picks the asset a query is about from an id and an optional type: one type, or a clear error when
 * the id is unknown or names assets of several types (an agent retries with `type`).
 */
import type { AssetDef, LinkedIndex } from "../index/linked.ts";
import { queryError, type QueryResult } from "./envelope.ts";
import { noSuchAsset } from "./not-found.ts";

export interface ResolvedAsset {
  readonly id: string;
  readonly type: string;
  /** Every definition of that type and id (overrides and vanilla copies), best first. */
  readonly defs: readonly AssetDef[];
}

/** The definitions of one (type, id), or a `not_found` / `ambiguous` / `bad_argument` error. */
export function resolveAsset(linked: LinkedIndex, id: string, type?: string | null): QueryResult<ResolvedAsset> {
  const wanted = id.trim();
  if (!wanted) return queryError("bad_argument", "the asset id is empty; pass the id attribute value of the asset");
  const all = linked.findAssets(wanted);
  const typeName = type?.trim() || null;
  const defs = typeName ? all.filter((a) => linked.typeMatches(a.type, typeName)) : all;
  if (defs.length === 0) return noSuchAsset(linked, wanted, typeName, all);
  const types = [...new Set(defs.map((a) => a.type))];
  if (types.length > 1) {
    return queryError(
      "ambiguous",
      `"${wanted}" names assets of ${types.length} types (${types.join(", ")}); pass type to choose one`,
      { types },
    );
  }
  return { id: defs[0].id, type: types[0], defs };
}
