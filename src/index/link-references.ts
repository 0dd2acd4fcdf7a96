/**
 * Link phase, references: every reference site of the index, resolved by id and schema type. Sites come
 * in one order: each non-fragment file's own sites (in record order), each followed by what its
 * xi:includes splice into its assets (attributed to the splicing asset, `link-splice.ts`); then the sites
 * of root-level containers' children; then those of fragments nothing splices; then the compiler's
 * dependency pairs from the manifests that no XML site of the same asset stands for (the XML sites they
 * confirm are marked `confirmedByManifest`).
 */
import type { AssetTable } from "./link-assets.ts";
import type { KeyedFile, LinkContext } from "./link-context.ts";
import type { FileTable } from "./link-files.ts";
import { type SiteAdder, SpliceCache, type SplicedModule, Splicer } from "./link-splice.ts";
import type { AssetDef, Diagnostic, FileState, ReferenceSite } from "./linked.ts";
import { push, rankCompare } from "./linked.ts";
import type { RecordDiagnostic, RefRecord } from "./records.ts";

export interface SiteTable {
  readonly sites: readonly ReferenceSite[];
  /** Asset index → the module ids spliced into it. */
  readonly splicedModules: ReadonlyMap<number, readonly SplicedModule[]>;
  /** Fragment file key → its schema warnings as its splices type it (replacing the record's guess). */
  readonly fragmentDiagnostics: ReadonlyMap<string, readonly RecordDiagnostic[]>;
  /** Fragment file keys nothing splices (their sites are `unspliced`). */
  readonly unsplicedFragments: ReadonlySet<string>;
  /** xi:include loops within a document, unsupported and unmatched xpointers. */
  readonly diagnostics: readonly Diagnostic[];
}

/** The id a reference value names: the text after the last `:` (the whole value when that is empty). */
function normaliseRefValue(value: string): string {
  const i = value.lastIndexOf(":");
  if (i < 0) return value;
  const tail = value.slice(i + 1);
  return tail ? tail : value;
}

/**
 * Resolves every reference of the linked files (`cache`: splice extractions kept across links).
 * @example linkReferences(ctx, files, assets, byId).sites.filter((s) => s.status !== "resolved")
 */
export function linkReferences(
  ctx: LinkContext,
  files: FileTable,
  table: AssetTable,
  byId: ReadonlyMap<string, readonly number[]>,
  cache: SpliceCache = new SpliceCache(),
): SiteTable {
  const sink = new SiteSink(new SiteResolver(ctx, table.assets, byId));
  const splicer = new Splicer(ctx, sink, cache);
  for (const f of ctx.all) recordSites(f, files, table, sink, splicer);
  for (const f of ctx.all) rootLevelSites(f, files, table, splicer);
  const unsplicedFragments = new Set<string>();
  for (const f of ctx.all) unsplicedSites(f, files, table, sink, splicer, unsplicedFragments);
  manifestSites(table, byId, sink);
  return {
    sites: sink.sites,
    splicedModules: splicer.splicedModules,
    fragmentDiagnostics: splicer.fragmentDiagnostics,
    unsplicedFragments,
    diagnostics: splicer.diagnostics,
  };
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
    const { targets, selfSkipped, selfOnly } = this.matching(r, from, candidates);
    const answer = {
      id,
      targets: targets.length ? targets : NO_TARGETS,
      status: targets.length ? ("resolved" as const) : selfOnly ? ("not_found" as const) : ("wrong_type" as const),
    };
    if (!selfSkipped) byType.set(typeKey, answer);
    return answer;
  }

  /** The candidates whose type the reference accepts, best first (a self-reference skipped). */
  private matching(
    r: RefRecord,
    from: number,
    candidates: readonly number[],
  ): { targets: number[]; selfSkipped: boolean; selfOnly?: boolean } {
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
    // An asset whose inheritFrom names its own id and nothing else of that id is indexed: with the SDK's
    // vanilla layer indexed, a cycle (kept, and reported); without it, the vanilla copy the mod overrides
    // (the common `id="X" inheritFrom="X"` idiom), which is not indexed: not found.
    if (targets.length === 0 && selfSkipped && r.kind === "inheritFrom") {
      if (this.ctx.inputs.sdkUsable) targets.push(from);
      else return { targets, selfSkipped, selfOnly: true };
    }
    // byId is best first already; the sort keeps that order and is a no-op unless candidates tie.
    if (targets.length > 1) targets.sort((x, y) => rankCompare(assets[x], assets[y]));
    return { targets, selfSkipped };
  }
}

/**
 * The site list being built: numbers each site as it is added. Sites nobody wrote are kept only when they
 * resolve: a guess (`heuristic`), an XSD default (`default`) and a runtime name (`name`) that match no
 * asset of the right type are not references (and never an unresolved-reference error).
 */
class SiteSink implements SiteAdder {
  readonly sites: ReferenceSite[] = [];

  constructor(private readonly resolver: SiteResolver) {}

  add(r: RefRecord, from: number, file: string, state: FileState, via: string | null, unspliced = false): void {
    const { id, targets, status } = this.resolver.resolve(r, from);
    if (r.kind === "heuristic" || r.kind === "default" || r.kind === "name") {
      if (status !== "resolved") return;
      // Guesses in files nothing includes (maps, drafts) are noise.
      if (r.kind === "heuristic" && state === "not-included") return;
    }
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
      unspliced,
      confirmedByManifest: false,
    });
  }

  addPrebuilt(site: Omit<ReferenceSite, "index">): void {
    this.sites.push({ index: this.sites.length, ...site });
  }
}

/** The sites of one non-fragment XML or art file, each xi:include's selection spliced in after them. */
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
    splicer.splice(indexes[xi.owner], loaded, xi, info.origin === "sdk" ? "sdk" : "project", info.state);
  }
}

/**
 * The compiler's own dependency pairs stored in the manifests (vanilla asset → vanilla asset, overrides
 * included). Where the referencing asset has an XML definition whose own sites already resolve to the
 * pair's target, those sites are the answer and the pair only confirms them (`confirmedByManifest`);
 * the other pairs become sites of kind `manifest`. Each (asset, target) pair counts once, however many
 * manifests hold it.
 */
function manifestSites(table: AssetTable, byId: ReadonlyMap<string, readonly number[]>, sink: SiteSink): void {
  const { assets } = table;
  const confirm = new Confirmations(sink.sites, assets, byId);
  const manifestTargets = new Map<number, number[]>();
  const seenPairs = new Set<number>();
  for (const { loaded, indexes } of table.manifestOwners) {
    const refs = loaded.record.manifestRefs;
    for (let k = 0; k + 2 < refs.length; k += 3) {
      const from = indexes[refs[k]];
      const to = table.manifestHandles.get(`${refs[k + 1]}:${refs[k + 2]}`);
      if (from === undefined || from < 0 || to === undefined) continue;
      // One key per (asset, target) pair of asset indexes (both below 2^26 at any realistic size).
      const pair = from * 67_108_864 + to;
      if (seenPairs.has(pair)) continue;
      seenPairs.add(pair);
      const target = assets[to];
      let targets = manifestTargets.get(to);
      if (!targets) {
        targets = confirm.sameAsset(target);
        if (targets.length > 1) targets.sort((x, y) => rankCompare(assets[x], assets[y]));
        manifestTargets.set(to, targets);
      }
      if (confirm.xmlSitesTo(from, targets)) continue;
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
        unspliced: false,
        confirmedByManifest: false,
      });
    }
  }
}

/**
 * Which XML sites a manifest pair confirms: those of the referencing asset's XML definitions (same type
 * and id) that resolve to one of the pair's targets. Each definition's sites are grouped by target once,
 * so a pair costs a few map lookups. Marks them by replacing the phase's own site objects, before the list
 * is published.
 */
class Confirmations {
  /** XML asset index → target asset index → its sites resolving to that target. */
  private readonly byTarget = new Map<number, Map<number, number[]>>();
  private xmlSitesFrom: Map<number, number[]> | null = null;

  constructor(
    private readonly sites: ReferenceSite[],
    private readonly assets: readonly AssetDef[],
    private readonly byId: ReadonlyMap<string, readonly number[]>,
  ) {}

  /** The definitions of `a`'s type and id, in every layer. */
  sameAsset(a: AssetDef): number[] {
    return (this.byId.get(a.id.toLowerCase()) ?? []).filter((i) => this.assets[i].type === a.type);
  }

  /** Marks the XML sites of `from`'s definitions that resolve to one of `targets`; true when there was one. */
  xmlSitesTo(from: number, targets: readonly number[]): boolean {
    let confirmed = false;
    for (const twin of this.sameAsset(this.assets[from])) {
      if (this.assets[twin].origin === "manifest") continue;
      const grouped = this.grouped(twin);
      for (const t of targets) {
        for (const i of grouped.get(t) ?? []) {
          confirmed = true;
          const s = this.sites[i];
          if (!s.confirmedByManifest) this.sites[i] = { ...s, confirmedByManifest: true };
        }
      }
    }
    return confirmed;
  }

  private grouped(asset: number): Map<number, number[]> {
    let g = this.byTarget.get(asset);
    if (g) return g;
    if (!this.xmlSitesFrom) {
      this.xmlSitesFrom = new Map();
      for (const s of this.sites) if (s.from >= 0) push(this.xmlSitesFrom, s.from, s.index);
    }
    g = new Map();
    for (const i of this.xmlSitesFrom.get(asset) ?? []) {
      for (const t of this.sites[i].targets) push(g, t, i);
    }
    this.byTarget.set(asset, g);
    return g;
  }
}

/** The children of a fragment's root-level containers are assets: the sites inside each are typed and owned as such. */
function rootLevelSites({ loaded, key }: KeyedFile, files: FileTable, table: AssetTable, splicer: Splicer): void {
  const info = files.get(key);
  const owners = table.xiChildOwners.get(key);
  if (!info || !info.fragment || !owners) return;
  for (const container of new Set(owners.map((o) => o.container))) {
    const mine = owners.filter((o) => o.container === container);
    const ownerAt = (offset: number) => mine.find((o) => offset >= o.start && offset < o.end)?.asset ?? -1;
    splicer.spliceRootLevel(loaded, container, info.state, ownerAt);
  }
}

/**
 * A fragment nothing splices is read by the guess its record was extracted with (its root element's
 * name taken as a type); its sites, owned by no asset, say so (`unspliced`).
 */
function unsplicedSites(
  { loaded, key }: KeyedFile,
  files: FileTable,
  table: AssetTable,
  sink: SiteSink,
  splicer: Splicer,
  unspliced: Set<string>,
): void {
  const info = files.get(key);
  if (!info || !info.fragment || info.foreign || table.xiChildOwners.has(key) || splicer.splicedFragments.has(key)) {
    return;
  }
  unspliced.add(key);
  for (const r of loaded.record.refs) sink.add(r, -1, loaded.path, info.state, null, true);
}
