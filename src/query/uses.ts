/**
 * Forward references with provenance (`get_asset_references`, `ra3 uses`): what an asset references,
 * walked to a bounded depth. `inheritFrom` ancestors are followed within the same depth (their edges
 * carry `definedIn`), target-type filtering keeps `inheritFrom` edges, and the edge count is capped.
 */
import type { AssetDef, LinkedIndex, ReferenceSite } from "../index/linked.ts";
import { assetTypeName } from "./assets.ts";
import { displayPath } from "../project/paths.ts";
import { isQueryError, queryError, type QueryResult } from "./envelope.ts";
import { cycleChain } from "./references.ts";
import { resolveAsset } from "./resolve-asset.ts";

const DEFAULT_DEPTH = 1;
const MAX_DEPTH = 3;
const MAX_INHERIT_CHAIN = 8;
export const DEFAULT_MAX_EDGES = 100;
const HARD_MAX_EDGES = 1000;

export interface AssetRef {
  readonly type: string;
  readonly id: string;
}

export interface UsesEdge {
  /** The asset being expanded (the start asset at depth 1). */
  readonly from: AssetRef;
  /** The referenced asset; `file`/`line` of its best definition, null when unresolved. */
  readonly to: AssetRef & {
    readonly file: string | null;
    readonly line: number | null;
    readonly status: ReferenceSite["status"];
  };
  readonly via: {
    readonly kind: ReferenceSite["kind"];
    readonly element: string;
    readonly parent: string | null;
    readonly attribute: string | null;
  };
  /** Where the reference is written. */
  readonly source: { readonly file: string; readonly line: number };
  /** Present when the reference is written on an `inheritFrom` ancestor of `from`. */
  readonly definedIn?: AssetRef;
  /** 1 for the start asset's own references, 2 for what those reference, … */
  readonly depth: number;
  /** An `inheritFrom` that is part of a cycle: the chain (`Type:Id` each) from `from` back to itself. */
  readonly cycle?: readonly string[];
}

/**
 * What an edge's target is, in words, when it is not simply a definition: an inheritFrom cycle, the
 * vanilla copy an override inherits from (not indexed without an SDK), a wrong type, or nothing found.
 * Null for a resolved edge outside a cycle. The CLI and MCP texts both say it this way.
 * @example edgeNote(edge) // "inheritFrom cycle: GameObject:A → GameObject:A"
 */
export function edgeNote(e: UsesEdge): string | null {
  if (e.cycle) return `inheritFrom cycle: ${e.cycle.join(" → ")}`;
  if (e.to.status === "resolved") return null;
  if (
    e.via.kind === "inheritFrom" && e.to.status === "not_found" && e.to.id.toLowerCase() === e.from.id.toLowerCase()
  ) {
    return "its vanilla copy: not indexed without an SDK";
  }
  return e.to.status === "wrong_type" ? "wrong type" : "not found";
}

export interface UsesResult {
  readonly asset: AssetRef & { readonly file: string; readonly line: number };
  readonly depth: number;
  readonly targetTypes: readonly string[];
  readonly edges: readonly UsesEdge[];
  readonly truncated: boolean;
  /** Edges left out because their target is not of a requested type. */
  readonly omittedByTargetType: number;
  /** The inheritFrom chain of the start asset (nearest first). */
  readonly inheritChain: readonly AssetRef[];
}

export interface UsesOptions {
  readonly type?: string | null;
  readonly depth?: number | null;
  readonly targetTypes?: readonly string[];
  readonly maxEdges?: number | null;
}

/**
 * Forward references of an asset.
 * @example uses(linked, "AlliedAthenaCannon", { depth: 3, targetTypes: ["WeaponTemplate"] }).edges.map(e => e.to.id)
 */
export function uses(linked: LinkedIndex, id: string, options: UsesOptions = {}): QueryResult<UsesResult> {
  const asset = resolveAsset(linked, id, options.type);
  if (isQueryError(asset)) return asset;
  const depth = options.depth ?? DEFAULT_DEPTH;
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH) {
    return queryError("bad_argument", `depth must be 1, 2 or 3, got ${depth}`);
  }
  const maxEdges = Math.max(1, Math.min(HARD_MAX_EDGES * 100, Math.floor(options.maxEdges ?? DEFAULT_MAX_EDGES)));
  const targetTypes: string[] = [];
  for (const t of options.targetTypes ?? []) {
    const trimmed = t.trim();
    if (!trimmed) continue;
    const known = assetTypeName(linked, trimmed);
    if (!known) {
      return queryError(
        "bad_argument",
        `"${trimmed}" is not a known asset type; use a type name such as WeaponTemplate or GameObject`,
      );
    }
    targetTypes.push(known);
  }
  const wanted = (type: string) => targetTypes.length === 0 || targetTypes.some((t) => linked.typeMatches(type, t));

  const start = asset.defs[0];
  const edges: UsesEdge[] = [];
  let truncated = false;
  let omitted = 0;
  const expanded = new Set<number>();
  let frontier: AssetDef[] = [start];
  const ref = (a: AssetDef): AssetRef => ({ type: a.type, id: a.id });

  for (let d = 1; d <= depth && frontier.length > 0 && !truncated; d++) {
    const next: AssetDef[] = [];
    for (const from of frontier) {
      if (expanded.has(from.index)) continue;
      expanded.add(from.index);
      // The asset itself, then its inheritFrom ancestors (same depth).
      const chain = inheritChain(linked, from);
      for (const owner of [from, ...chain]) {
        for (const si of linked.referencesFrom.get(owner.index) ?? []) {
          const s = linked.sites[si];
          const target = s.targets.length ? linked.assets[s.targets[0]] : null;
          const toType = target?.type ?? s.refType ?? s.selfType ?? "?";
          if (s.kind !== "inheritFrom" && !wanted(toType)) {
            omitted++;
          } else if (edges.length >= maxEdges) {
            truncated = true;
          } else {
            const edge: UsesEdge = {
              from: ref(from),
              to: {
                type: toType,
                id: target?.id ?? s.id,
                file: target ? displayPath(linked, target.file) : null,
                line: target ? target.line : null,
                status: s.status,
              },
              via: { kind: s.kind, element: s.element, parent: s.parent, attribute: s.attribute },
              source: { file: displayPath(linked, s.file), line: s.line },
              depth: d,
            };
            const cycle = linked.cycleOfSite.get(si);
            const labelled = cycle ? { ...edge, cycle: cycleChain(linked, cycle.assets, owner.index) } : edge;
            edges.push(owner === from ? labelled : { ...labelled, definedIn: ref(owner) });
          }
          if (target && s.kind !== "inheritFrom" && !expanded.has(target.index)) next.push(target);
        }
      }
    }
    frontier = next;
  }
  // With a type filter, an inheritFrom edge is kept only where it explains a kept edge (or starts the chain).
  let kept = edges;
  if (targetTypes.length) {
    const explains = new Set<string>();
    for (const e of edges) {
      if (e.via.kind === "inheritFrom") continue;
      explains.add(`${e.from.type}\u0000${e.from.id}`);
      if (e.definedIn) explains.add(`${e.definedIn.type}\u0000${e.definedIn.id}`);
    }
    kept = edges.filter((e) => {
      if (e.via.kind !== "inheritFrom" || e.depth === 1 && e.from.id === start.id && e.from.type === start.type) {
        return true;
      }
      if (explains.has(`${e.from.type}\u0000${e.from.id}`)) return true;
      omitted++;
      return false;
    });
  }
  return {
    asset: { type: start.type, id: start.id, file: displayPath(linked, start.file), line: start.line },
    depth,
    targetTypes,
    edges: kept,
    truncated,
    omittedByTargetType: omitted,
    inheritChain: inheritChain(linked, start).map(ref),
  };
}

/** The `inheritFrom` ancestors of `a`, nearest first, at most {@link MAX_INHERIT_CHAIN}, cycle-safe. */
export function inheritChain(linked: LinkedIndex, a: AssetDef): AssetDef[] {
  const out: AssetDef[] = [];
  const seen = new Set<number>([a.index]);
  let cur: AssetDef | null = a;
  while (cur && out.length < MAX_INHERIT_CHAIN) {
    let parent: AssetDef | null = null;
    const siteIndexes: readonly number[] = linked.referencesFrom.get(cur.index) ?? [];
    for (const si of siteIndexes) {
      const s: ReferenceSite = linked.sites[si];
      if (s.kind === "inheritFrom" && s.targets.length) {
        parent = linked.assets[s.targets[0]];
        break;
      }
    }
    if (!parent || seen.has(parent.index)) break;
    seen.add(parent.index);
    out.push(parent);
    cur = parent;
  }
  return out;
}
