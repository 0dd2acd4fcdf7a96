/**
 * Link phase, references and splicing: every reference site of the index, resolved by id and schema
 * type. Sites come in one order: each non-fragment file's own sites (in record order), each followed by
 * the sites of the fragments its xi:includes splice into its assets (attributed to the splicing asset);
 * then the compiler's dependency pairs from the manifests; then the sites of fragments no asset owns.
 */
import { pathKey } from "../project/paths.ts";
import type { AssetTable } from "./link-assets.ts";
import type { KeyedFile, LinkContext } from "./link-context.ts";
import { xpointerContainer } from "./link-context.ts";
import type { FileTable } from "./link-files.ts";
import { type AssetDef, type FileState, push, rankCompare, type ReferenceSite } from "./linked.ts";
import type { RefRecord, XIncludeDecl } from "./records.ts";

/** A module id an asset gets from a fragment it splices (Poid references may name it). */
export interface SplicedModule {
  readonly id: string;
  readonly element: string;
  readonly file: string;
  readonly line: number;
}

export interface SiteTable {
  readonly sites: readonly ReferenceSite[];
  /** Asset index → the module ids spliced into it. */
  readonly splicedModules: ReadonlyMap<number, readonly SplicedModule[]>;
}

/** The id a reference value names: the text after the last `:` (the whole value when that is empty). */
function normaliseRefValue(value: string): string {
  const i = value.lastIndexOf(":");
  if (i < 0) return value;
  const tail = value.slice(i + 1);
  return tail ? tail : value;
}

/**
 * Resolves every reference of the linked files.
 * @example linkReferences(ctx, files, assets, byId).sites.filter((s) => s.status !== "resolved")
 */
export function linkReferences(
  ctx: LinkContext,
  files: FileTable,
  table: AssetTable,
  byId: ReadonlyMap<string, readonly number[]>,
): SiteTable {
  const sink = new SiteSink(new SiteResolver(ctx, table.assets, byId));
  const splicer = new Splicer(ctx, sink);
  for (const f of ctx.all) recordSites(f, files, table, sink, splicer);
  manifestSites(table, byId, sink);
  for (const f of ctx.all) fragmentSites(f, files, table, sink, splicer.splicedFragments);
  return { sites: sink.sites, splicedModules: splicer.splicedModules };
}

interface Resolution {
  readonly id: string;
  readonly targets: readonly number[];
  readonly status: ReferenceSite["status"];
}

const NO_TARGETS: readonly number[] = [];

/**
 * Resolution by id and type. It depends only on (value, refType, selfType) except when the candidates
 * include the site's own asset (self-references are skipped): the common case is memoised, and the
 * target arrays are shared.
 */
class SiteResolver {
  /** value → (refType or "=" + selfType) → resolution; nested maps avoid building a key string per site. */
  private readonly memo = new Map<string, Map<string, Resolution>>();

  constructor(
    private readonly ctx: LinkContext,
    private readonly assets: readonly AssetDef[],
    private readonly byId: ReadonlyMap<string, readonly number[]>,
  ) {}

  resolve(r: RefRecord, from: number): Resolution {
    let byType = this.memo.get(r.value);
    if (byType === undefined) {
      byType = new Map();
      this.memo.set(r.value, byType);
    }
    const typeKey = r.refType ?? (r.selfType === null ? "" : `=${r.selfType}`);
    const hit = byType.get(typeKey);
    if (hit && !hit.targets.includes(from)) return hit;
    const id = normaliseRefValue(r.value);
    const candidates = this.byId.get(id.toLowerCase());
    if (!candidates) {
      const miss = { id, targets: NO_TARGETS, status: "not_found" as const };
      byType.set(typeKey, miss);
      return miss;
    }
    const { targets, selfSkipped } = this.matching(r, from, candidates);
    const answer = {
      id,
      targets: targets.length ? targets : NO_TARGETS,
      status: targets.length ? ("resolved" as const) : ("wrong_type" as const),
    };
    if (!selfSkipped) byType.set(typeKey, answer);
    return answer;
  }

  /** The candidates whose type the reference accepts, best first (a self-reference skipped). */
  private matching(
    r: RefRecord,
    from: number,
    candidates: readonly number[],
  ): { targets: number[]; selfSkipped: boolean } {
    const schema = this.ctx.schema;
    const assets = this.assets;
    const targets: number[] = [];
    let selfSkipped = false;
    for (const c of candidates) {
      const t = assets[c].type;
      if (r.refType && !(schema ? schema.isAssignable(t, r.refType) : t === r.refType)) continue;
      if (r.selfType && !(schema ? schema.isAssignable(t, r.selfType) : t === r.selfType)) continue;
      if (c === from && (r.kind === "inheritFrom" || r.kind === "heuristic")) {
        selfSkipped = true;
        continue;
      }
      targets.push(c);
    }
    // byId is best first already; the sort keeps that order and is a no-op unless candidates tie.
    if (targets.length > 1) targets.sort((x, y) => rankCompare(assets[x], assets[y]));
    return { targets, selfSkipped };
  }
}

/** The site list being built: numbers each site as it is added. */
class SiteSink {
  readonly sites: ReferenceSite[] = [];

  constructor(private readonly resolver: SiteResolver) {}

  add(r: RefRecord, from: number, file: string, state: FileState, via: string | null): void {
    const { id, targets, status } = this.resolver.resolve(r, from);
    // A guess that matched nothing is not a reference; guesses in files nothing includes (maps, drafts) are noise.
    if (r.kind === "heuristic" && (status !== "resolved" || state === "not-included")) return;
    this.sites.push({
      index: this.sites.length,
      from,
      kind: r.kind,
      value: r.value,
      id,
      refType: r.refType,
      selfType: r.selfType,
      element: r.element,
      parent: r.parent,
      attribute: r.attribute,
      file,
      line: r.line,
      column: r.column,
      targets,
      status,
      state,
      active: state === "compiled",
      via,
    });
  }

  addPrebuilt(site: Omit<ReferenceSite, "index">): void {
    this.sites.push({ index: this.sites.length, ...site });
  }
}

/** The sites of one non-fragment XML or art file, each xi:include's fragment spliced in after them. */
function recordSites(
  { loaded, key }: KeyedFile,
  files: FileTable,
  table: AssetTable,
  sink: SiteSink,
  splicer: Splicer,
): void {
  const info = files.get(key);
  if (!info || (info.kind !== "xml" && info.kind !== "art") || info.fragment) return;
  const rec = loaded.record;
  const indexes = table.recordAssets.get(key) ?? [];
  for (const r of rec.refs) sink.add(r, r.owner >= 0 ? indexes[r.owner] : -1, loaded.path, info.state, null);
  for (const xi of rec.xincludes) {
    if (xi.rootLevel || xi.owner < 0) continue;
    splicer.splice(indexes[xi.owner], loaded.path, xi, info.origin === "sdk" ? "sdk" : "project", info.state, 0, [
      key,
    ]);
  }
}

/** Follows xi:includes inside assets: the fragment's sites and module ids belong to the splicing asset. */
class Splicer {
  readonly splicedFragments = new Set<string>();
  readonly splicedModules = new Map<number, SplicedModule[]>();

  constructor(private readonly ctx: LinkContext, private readonly sink: SiteSink) {}

  splice(
    owner: number,
    includer: string,
    xi: Pick<XIncludeDecl, "href" | "xpointer">,
    layer: "project" | "sdk",
    state: FileState,
    depth: number,
    chain: readonly string[],
  ): void {
    if (depth > 16) return;
    const res = this.ctx.inputs.resolve(xi.href, includer, layer);
    if (!res.path) return;
    const tk = pathKey(res.path);
    if (chain.includes(tk)) return;
    const target = this.ctx.records.get(tk);
    if (!target || !target.record.fragment) return;
    this.splicedFragments.add(tk);
    const container = xpointerContainer(xi.xpointer);
    const range = container ? target.record.ranges.find((r) => r.local === container) : null;
    if (container && !range) return;
    const lo = range ? range.start : 0;
    const hi = range ? range.end : Number.MAX_SAFE_INTEGER;
    const rec = target.record;
    for (const r of rec.refs) {
      if (r.offset >= lo && r.offset < hi) this.sink.add(r, owner, target.path, state, xi.href);
    }
    for (const m of rec.localIds) {
      if (m.offset >= lo && m.offset < hi) {
        push(this.splicedModules, owner, { id: m.id, element: m.element, file: target.path, line: m.line });
      }
    }
    for (const inner of rec.xincludes) {
      if (inner.offset >= lo && inner.offset < hi) {
        this.splice(owner, target.path, inner, layer, state, depth + 1, [...chain, tk]);
      }
    }
  }
}

/** The compiler's own dependency pairs stored in the manifests: vanilla asset → vanilla asset (and overrides). */
function manifestSites(table: AssetTable, byId: ReadonlyMap<string, readonly number[]>, sink: SiteSink): void {
  const { assets } = table;
  const manifestTargets = new Map<number, number[]>();
  for (const { loaded, indexes } of table.manifestOwners) {
    const refs = loaded.record.manifestRefs;
    for (let k = 0; k + 2 < refs.length; k += 3) {
      const from = indexes[refs[k]];
      const to = table.manifestHandles.get(`${refs[k + 1]}:${refs[k + 2]}`);
      if (from === undefined || from < 0 || to === undefined) continue;
      const target = assets[to];
      let targets = manifestTargets.get(to);
      if (!targets) {
        targets = (byId.get(target.id.toLowerCase()) ?? []).filter((i) => assets[i].type === target.type);
        if (targets.length > 1) targets.sort((x, y) => rankCompare(assets[x], assets[y]));
        manifestTargets.set(to, targets);
      }
      sink.addPrebuilt({
        from,
        kind: "manifest",
        value: `${target.type}:${target.id}`,
        id: target.id,
        refType: target.type,
        selfType: null,
        element: assets[from].type,
        parent: null,
        attribute: null,
        file: loaded.path,
        line: 0,
        column: 0,
        targets,
        status: "resolved",
        // The compiler's pair inside a prebuilt manifest: part of what the mod references.
        state: "referenced",
        active: false,
        via: null,
      });
    }
  }
}

/**
 * Fragments: the references inside a root-level container's children belong to the assets those
 * children became; the rest of a fragment spliced nowhere still shows, owned by no asset.
 */
function fragmentSites(
  { loaded, key }: KeyedFile,
  files: FileTable,
  table: AssetTable,
  sink: SiteSink,
  splicedFragments: ReadonlySet<string>,
): void {
  const info = files.get(key);
  if (!info || !info.fragment) return;
  const owners = table.xiChildOwners.get(key);
  const spliced = splicedFragments.has(key);
  if (!owners && spliced) return;
  for (const r of loaded.record.refs) {
    const owner = owners?.find((o) => r.offset >= o.start && r.offset < o.end);
    if (owner) sink.add(r, owner.asset, loaded.path, info.state, null);
    else if (!spliced) sink.add(r, -1, loaded.path, info.state, null);
  }
}
