/**
 * Reverse references (`find_references`, `ra3 refs`): every site that resolves to an asset, keyed by
 * type so same-id assets of different types never share results.
 */
import type { LinkedIndex, ReferenceSite } from "../index/linked.ts";
import { REFERENCE_KINDS, type ReferenceKind } from "../index/records.ts";
import { shortenedChain } from "../index/link-caps.ts";

export { REFERENCE_KINDS };
import { clampLimit } from "./assets.ts";
import { displayPath } from "../project/paths.ts";
import { decodeCursor, encodeCursor } from "./present.ts";
import { isQueryError, queryError, type QueryResult } from "./envelope.ts";
import { resolveAsset } from "./resolve-asset.ts";

export interface SiteView {
  /** The asset the reference is written in, or null (outside any asset). */
  readonly from: { readonly type: string; readonly id: string } | null;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly kind: ReferenceSite["kind"];
  readonly element: string;
  readonly parent: string | null;
  readonly attribute: string | null;
  /** As written (possibly `Type:Id`). */
  readonly value: string;
  /** The state of the file holding the site (of the splicing asset's file for a spliced fragment). */
  readonly state: ReferenceSite["state"];
  /** `state === "compiled"`. */
  readonly active: boolean;
  /** The xi:include that splices this fragment site into `from`, when there is one. */
  readonly via?: string;
  /** A compiled manifest holds the same dependency (SDK mode: the pair stands behind this XML site). */
  readonly confirmedByManifest?: true;
  /** In a fragment nothing splices in: its elements are typed by a guess from the root's name. */
  readonly unspliced?: true;
  /** The site's `inheritFrom` is part of a cycle: the chain, `Type:Id` each, back to where it started. */
  readonly cycle?: readonly string[];
}

export interface FindReferencesResult {
  readonly id: string;
  readonly type: string;
  /** The kinds asked for (empty: every kind). */
  readonly kinds: readonly ReferenceKind[];
  /** Sites of the kinds asked for. */
  readonly total: number;
  /** The distinct assets those sites are in (an asset referencing it twice counts once). */
  readonly assets: number;
  /** Every site by kind, whatever the filter (the kinds with none left out). */
  readonly byKind: Readonly<Partial<Record<ReferenceKind, number>>>;
  /** Totals of the kinds asked for, by the referencing file's layer. */
  readonly byOrigin: { readonly project: number; readonly sdk: number; readonly manifest: number };
  readonly references: readonly SiteView[];
  readonly nextCursor: string | null;
}

const STATE_RANK = { compiled: 0, referenced: 1, "not-included": 2 } as const;

/** The result shape of one reference site. */
function siteView(linked: LinkedIndex, s: ReferenceSite): SiteView {
  const from = s.from >= 0 ? linked.assets[s.from] : null;
  const v: SiteView = {
    from: from ? { type: from.type, id: from.id } : null,
    file: displayPath(linked, s.file),
    line: s.line,
    column: s.column,
    kind: s.kind,
    element: s.element,
    parent: s.parent,
    attribute: s.attribute,
    value: s.value,
    state: s.state,
    active: s.active,
  };
  const cycle = linked.cycleOfSite.get(s.index);
  return {
    ...v,
    ...(s.via ? { via: s.via } : {}),
    ...(s.confirmedByManifest ? { confirmedByManifest: true as const } : {}),
    ...(s.unspliced ? { unspliced: true as const } : {}),
    ...(cycle ? { cycle: cycleChain(linked, cycle.assets, s.from) } : {}),
  };
}

/**
 * A cycle's chain as `Type:Id`, starting (and ending) at `from`; a long one shortened as the diagnostics
 * shorten it (its first names, `… (N more)`, the last), so that a site of a huge cycle is not an answer of
 * its whole length (50,000 members: 50,001 names in every site's answer).
 */
export function cycleChain(linked: LinkedIndex, members: readonly number[], from: number): string[] {
  const n = members.length;
  const k = Math.max(0, members.indexOf(from));
  return shortenedChain(n + 1, (j) => {
    const a = linked.assets[members[(k + j) % n]];
    return `${a.type}:${a.id}`;
  });
}

/**
 * The reference kinds of `names` (case-insensitive), or a bad-argument error naming the valid ones.
 * @example parseKinds(["inheritFrom"]) // ["inheritFrom"]
 */
function parseKinds(
  names: readonly string[] | null | undefined,
): ReferenceKind[] | ReturnType<typeof queryError> {
  const out: ReferenceKind[] = [];
  for (const raw of names ?? []) {
    const name = raw.trim();
    if (!name) continue;
    const kind = REFERENCE_KINDS.find((k) => k.toLowerCase() === name.toLowerCase());
    if (!kind) {
      return queryError("bad_argument", `"${name}" is not a reference kind; use one of ${REFERENCE_KINDS.join(", ")}`);
    }
    if (!out.includes(kind)) out.push(kind);
  }
  return out;
}

/**
 * Who references the asset `id` (of `type`, required when the id names several types), paged.
 * Sites resolving to any definition of that type and id count (an override inherits the vanilla copy's).
 * Project sites first, then compiled before referenced before not included.
 * @example findReferences(linked, "AthenaCannonBeam").references[0].from // { type: "GameObject", id: "AlliedAthenaCannon" }
 */
export function findReferences(
  linked: LinkedIndex,
  id: string,
  options: { type?: string | null; kinds?: readonly string[] | null; limit?: number | null; cursor?: string | null } =
    {},
): QueryResult<FindReferencesResult> {
  const kinds = parseKinds(options.kinds);
  if (isQueryError(kinds)) return kinds;
  const asset = resolveAsset(linked, id, options.type);
  if (isQueryError(asset)) return asset;
  const offset = options.cursor ? decodeCursor(options.cursor) : 0;
  if (offset === null) {
    return queryError("bad_argument", "the cursor is not valid; pass the nextCursor of a previous answer or omit it");
  }
  const limit = clampLimit(options.limit);
  const seen = new Set<number>();
  const sites: ReferenceSite[] = [];
  const byKind: Partial<Record<ReferenceKind, number>> = {};
  for (const def of asset.defs) {
    for (const i of linked.referencedBy.get(def.index) ?? []) {
      if (seen.has(i)) continue;
      seen.add(i);
      const s = linked.sites[i];
      if (s.from >= 0 && asset.defs.some((d) => d.index === s.from) && s.kind !== "inheritFrom") continue; // self
      byKind[s.kind] = (byKind[s.kind] ?? 0) + 1;
      if (kinds.length && !kinds.includes(s.kind)) continue;
      sites.push(s);
    }
  }
  // Definitions of one asset in several layers (an XML copy and its manifest entry) count once.
  const referrers = new Set(
    sites.map((
      s,
    ) => (s.from >= 0
      ? `${linked.assets[s.from].type}\u0000${linked.assets[s.from].id.toLowerCase()}`
      : `@${s.index}`)
    ),
  );
  const layer = (
    s: ReferenceSite,
  ) => (s.kind === "manifest"
    ? "manifest"
    : linked.files.get(s.file.replace(/\\/g, "/").toLowerCase())?.origin ?? "project");
  const byOrigin = { project: 0, sdk: 0, manifest: 0 };
  for (const s of sites) byOrigin[layer(s)]++;
  sites.sort((a, b) => {
    const la = layer(a) === "project" ? 0 : 1;
    const lb = layer(b) === "project" ? 0 : 1;
    return la - lb || STATE_RANK[a.state] - STATE_RANK[b.state] ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column;
  });
  return {
    id: asset.id,
    type: asset.type,
    kinds,
    total: sites.length,
    assets: referrers.size,
    byKind: Object.fromEntries(REFERENCE_KINDS.filter((k) => byKind[k]).map((k) => [k, byKind[k]])),
    byOrigin,
    references: sites.slice(offset, offset + limit).map((s) => siteView(linked, s)),
    nextCursor: offset + limit < sites.length ? encodeCursor(offset + limit) : null,
  };
}
