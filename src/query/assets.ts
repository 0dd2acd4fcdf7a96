/**
 * Asset queries: definitions of an id, and paged listing of a type.
 */
import type { AssetDef, LinkedIndex } from "../index/linked.ts";
import { displayPath } from "../project/paths.ts";
import { type AssetView, assetView, decodeCursor, encodeCursor, suggest } from "./present.ts";
import { queryError, type QueryResult } from "./envelope.ts";
import { noSuchAsset } from "./not-found.ts";

const DEFAULT_LIMIT = 50;
const HARD_LIMIT = 500;

export interface FindAssetResult {
  readonly id: string;
  readonly type: string | null;
  readonly definitions: readonly AssetView[];
  /** Distinct types among the definitions. */
  readonly types: readonly string[];
  /** One sentence per definition in a file with an XML error (the builder rejects that file). */
  readonly notes: readonly string[];
}

/**
 * Definitions of `id` (case-insensitive), optionally restricted to a type (or its subtypes), best first:
 * project before SDK before manifest, compiled before referenced before not included. A definition in a
 * file with an XML error is still a definition: the answer says so, and where the error is.
 * @example findAsset(linked, "AlliedAthenaCannon").definitions[0].file // "Data/Includes/…/AthenaCannon.xml"
 */
export function findAsset(linked: LinkedIndex, id: string, type?: string | null): QueryResult<FindAssetResult> {
  const wanted = id.trim();
  if (!wanted) return queryError("bad_argument", "the asset id is empty; pass the id attribute value of the asset");
  const typeName = type?.trim() || null;
  if (typeName && !knownType(linked, typeName)) {
    return queryError(
      "bad_argument",
      `"${typeName}" is not an asset type of this index; list the types with get_status or drop the type`,
      {
        suggestions: suggest(typeName, linked.byType.keys()),
      },
    );
  }
  const all = linked.findAssets(wanted);
  const defs = typeName ? all.filter((a) => linked.typeMatches(a.type, typeName)) : all;
  if (defs.length === 0) return noSuchAsset(linked, wanted, typeName, all);
  return {
    id: wanted,
    type: typeName,
    definitions: defs.map((a) => assetView(linked, a)),
    types: [...new Set(defs.map((a) => a.type))],
    notes: defs.filter((a) => a.fileHasErrors).map((a) => brokenFileNote(linked, a)),
  };
}

/**
 * `defined at F:L, but F has an XML error at F:L2 (message): the builder will reject this file until it
 * is fixed`, for a definition read from a malformed file.
 */
function brokenFileNote(linked: LinkedIndex, a: AssetDef): string {
  const f = displayPath(linked, a.file);
  const e = linked.file(a.file)?.xmlError;
  const at = e ? ` at ${f}:${e.line} (${e.message})` : "";
  return `${a.type} ${a.id} is defined at ${f}:${a.line}, but ${f} has an XML error${at}: the builder will reject this file until it is fixed`;
}

export interface ListAssetsResult {
  readonly type: string;
  readonly prefix: string | null;
  readonly total: number;
  readonly items: readonly {
    readonly id: string;
    readonly type: string;
    readonly file: string;
    readonly line: number;
    readonly origin: string;
    readonly state: AssetDef["state"];
    readonly active: boolean;
  }[];
  readonly nextCursor: string | null;
}

/** Ids of `type` (exact type, case-insensitive), optionally with a prefix, paged by `limit`/`cursor`. */
export function listAssets(
  linked: LinkedIndex,
  type: string,
  options: { prefix?: string | null; limit?: number | null; cursor?: string | null } = {},
): QueryResult<ListAssetsResult> {
  const t = canonicalPresentType(linked, type.trim());
  if (!t) {
    return queryError(
      "bad_argument",
      `no asset of type "${type}" is indexed; check the type name (e.g. GameObject, WeaponTemplate)`,
      {
        suggestions: suggest(type, linked.byType.keys()),
      },
    );
  }
  const offset = options.cursor ? decodeCursor(options.cursor) : 0;
  if (offset === null) {
    return queryError("bad_argument", "the cursor is not valid; pass the nextCursor of a previous answer or omit it");
  }
  const limit = clampLimit(options.limit);
  const prefix = options.prefix?.toLowerCase() ?? "";
  const ids = (linked.byType.get(t) ?? []).filter((i) =>
    !prefix || linked.assets[i].id.toLowerCase().startsWith(prefix)
  );
  const page = ids.slice(offset, offset + limit).map((i) => {
    const a = linked.assets[i];
    const v = assetView(linked, a);
    return { id: a.id, type: a.type, file: v.file, line: a.line, origin: a.origin, state: a.state, active: a.active };
  });
  return {
    type: t,
    prefix: options.prefix ?? null,
    total: ids.length,
    items: page,
    nextCursor: offset + limit < ids.length ? encodeCursor(offset + limit) : null,
  };
}

/** `limit` bounded to [1, HARD_LIMIT], default {@link DEFAULT_LIMIT}. */
export function clampLimit(limit: number | null | undefined, def = DEFAULT_LIMIT): number {
  if (limit === null || limit === undefined || !Number.isFinite(limit)) return def;
  return Math.max(1, Math.min(HARD_LIMIT, Math.floor(limit)));
}

function knownType(linked: LinkedIndex, type: string): boolean {
  if (canonicalPresentType(linked, type)) return true;
  return linked.schema?.canonicalType(type) != null;
}

function canonicalPresentType(linked: LinkedIndex, type: string): string | null {
  if (linked.byType.has(type)) return type;
  const l = type.toLowerCase();
  for (const k of linked.byType.keys()) if (k.toLowerCase() === l) return k;
  return null;
}

/** Asset counts per type (descending), for summaries. */
export function countsByType(
  linked: LinkedIndex,
  origin?: "project" | "sdk" | "manifest",
): { type: string; count: number }[] {
  const out: { type: string; count: number }[] = [];
  for (const [type, list] of linked.byType) {
    const n = origin ? list.filter((i) => linked.assets[i].origin === origin).length : list.length;
    if (n > 0) out.push({ type, count: n });
  }
  return out.sort((a, b) => b.count - a.count || (a.type < b.type ? -1 : 1));
}

/**
 * The canonical name of an asset type (a type present in the index, or a schema type deriving from
 * BaseAssetType such as BaseRenderAssetType), or null — element names like `Weapon` are not asset types.
 */
export function assetTypeName(linked: LinkedIndex, name: string): string | null {
  const present = canonicalPresentType(linked, name);
  if (present) return present;
  const schema = linked.schema;
  if (!schema) return null;
  const c = schema.canonicalType(name);
  return c !== null && schema.isAssetType(c) ? c : null;
}
