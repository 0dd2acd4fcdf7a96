// What the confinement (issue 15 item 1) costs the include resolution: every include and xi:include
// source of a real mod resolved with a cold resolver cache, confined (the gate of `confinement.ts`) and
// unconfined, interleaved, over one warm directory-listing cache (so disk reads are not what is timed),
// with the number of `realPath` calls the confined run makes; and what it costs strict consistency's stat
// of every indexed file (a trusted watcher: `Workspace.refreshKnown`), a plain stat per file against the
// confined stamp (`Workspace.confinedStamps`: an lstat per file, a real path per folder), interleaved.
// Usage: bun scripts/bench-confine.ts [--rounds 15]
// Prints two markdown tables (docs/performance.md, "Confinement").
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CORPORA } from "./corpora.ts";
import { CaseResolver } from "../src/project/case-resolver.ts";
import { Confinement } from "../src/project/confinement.ts";
import { type DirectoryLister, NodeDirectoryLister } from "../src/project/fs-port.ts";
import { buildSearchPaths, IncludeResolver } from "../src/project/search-paths.ts";
import { resolveConfig } from "../src/workspace/config.ts";
import { statStamp, Workspace } from "../src/workspace/workspace.ts";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "15" } } });
const rounds = Number(values.rounds);

/** A lister that counts `realPath` calls (the one new disk question the confinement asks). */
class CountingLister implements DirectoryLister {
  realPaths = 0;
  constructor(private readonly inner: NodeDirectoryLister) {}
  list(dir: string) {
    return this.inner.list(dir);
  }
  unlistable(dir: string) {
    return this.inner.unlistable(dir);
  }
  probe(path: string) {
    return this.inner.probe(path);
  }
  realPath(path: string) {
    this.realPaths++;
    return this.inner.realPath(path);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const cases = [
  { name: "Upheaval (project-only)", project: join(CORPORA, "upheaval"), sdk: "" },
  { name: "TW SDK + Commander", project: join(CORPORA, "tw-sdk", "Mods", "Commander"), sdk: join(CORPORA, "tw-sdk") },
];

console.log("| corpus | include sources | unconfined (ms) | confined (ms) | realPath calls |");
console.log("|---|---:|---:|---:|---:|");
const stampRows: string[] = [];
for (const c of cases) {
  if (!existsSync(c.project)) {
    console.log(`| ${c.name} | absent | | | |`);
    continue;
  }
  const home = join("/tmp", `ra3-bench-confine-${process.pid}`);
  const cfg = resolveConfig({ project: c.project, sdk: c.sdk, schema: null, home, env: {} });
  if ("envError" in cfg) throw new Error(cfg.envError);
  const ws = new Workspace(cfg);
  await ws.build(() => {}, undefined, { publishXmlPhase: false });
  ws.close();
  const pairs: [string, string][] = [];
  for (const f of ws.core.values()) {
    for (const i of f.record.includes) pairs.push([i.source, f.path]);
    for (const x of f.record.xincludes) pairs.push([x.href, f.path]);
  }
  const lister = new CountingLister(new NodeDirectoryLister());
  const plain = new CaseResolver(lister);
  const paths = buildSearchPaths(cfg.layout, cfg.sdk, [], plain);
  const resolveAll = (r: IncludeResolver) => {
    let hits = 0;
    for (const [s, from] of pairs) if (r.resolve(s, from).resolved) hits++;
    return hits;
  };
  resolveAll(new IncludeResolver(paths, plain)); // warms the listing cache
  const free: number[] = [];
  const gated: number[] = [];
  let realPaths = 0;
  let hitsFree = 0;
  let hitsGated = 0;
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    hitsFree = resolveAll(new IncludeResolver(paths, new CaseResolver(lister)));
    free.push(performance.now() - t);
    lister.realPaths = 0;
    const confinement = new Confinement({ projectDir: cfg.projectDir, sdkDir: cfg.sdk?.dir ?? null }, lister);
    t = performance.now();
    hitsGated = resolveAll(new IncludeResolver(paths, new CaseResolver(lister).confined(confinement)));
    gated.push(performance.now() - t);
    realPaths = lister.realPaths;
  }
  if (hitsFree !== hitsGated) throw new Error(`${c.name}: ${hitsFree} hits unconfined, ${hitsGated} confined`);
  console.log(
    `| ${c.name} | ${pairs.length} | ${median(free).toFixed(1)} | ${median(gated).toFixed(1)} | ${realPaths} |`,
  );

  const files = [...ws.core.values()].map((f) => f.path);
  const plainStamps: number[] = [];
  const confinedStamps: number[] = [];
  let plainFound = 0;
  let confinedFound = 0;
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    plainFound = files.filter((p) => statStamp(p) !== null).length;
    plainStamps.push(performance.now() - t);
    t = performance.now();
    const stamp = ws.confinedStamps();
    confinedFound = files.filter((p) => stamp(p) !== null).length;
    confinedStamps.push(performance.now() - t);
  }
  if (plainFound !== confinedFound) throw new Error(`${c.name}: ${plainFound} stamps plain, ${confinedFound} confined`);
  const folders = new Set(files.map((p) => join(p, ".."))).size;
  stampRows.push(
    `| ${c.name} | ${files.length} | ${folders} | ${median(plainStamps).toFixed(1)} | ${
      median(confinedStamps).toFixed(1)
    } |`,
  );
}

console.log("");
console.log("| corpus | indexed files | their folders | stat each (ms) | confined stamp each (ms) |");
console.log("|---|---:|---:|---:|---:|");
for (const row of stampRows) console.log(row);
