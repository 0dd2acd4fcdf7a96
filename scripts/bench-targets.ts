// The target table of issue 16 ("as fast as the disk allows"), one row per figure that can be measured
// on this machine: cold and warm whole-process runs of the compiled binary on the real mods (Upheaval
// project-only and with the RA3 schema, the TW SDK in SDK mode) and on the generated Corona-scale mod,
// cold against the time to list and read every byte, edit → answer with consistency "strict" (in
// process, watcher running, as in the MCP server), how long the MCP server stays silent during a cold
// build and a warm start (ping and get_status polled over stdio; at Corona scale, and on Upheaval with the
// RA3 schema for the XSD load), a find_asset miss at Corona scale,
// peak RSS.
//
// The peer (the VS Code extension the issue compared with) cannot be run here, so the peer-relative rows
// use the measured ratios: peer time = ra3 baseline time / the "today" ratio (a range,
// since the issue gives one per figure, not per mod), and the ratio now = measured / that peer time.
// BASELINE holds the baseline medians (docs/performance.md, issue 16 section) that define the peer times.
//
// Usage: bun scripts/bench-targets.ts [--runs 3] [--only cold,warm,corona,edit,edit-add,silence,silence-schema,miss,rss]
//                                     [--barrier on|off]
//                                     [--binary dist/ra3] [--corona /tmp/ra3-perf-corona]
// Build first (npm run build). Prints the machine's load average before and after, then the table.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CORPORA } from "./corpora.ts";
import { rawMcp } from "./raw-mcp.ts";
import { scanProjectFiles } from "../src/project/scan.ts";
import { findAsset } from "../src/query/assets.ts";
import { resolveConfig } from "../src/workspace/config.ts";
import { IndexService } from "../src/workspace/service.ts";
import { waitForSnapshot } from "./snapshot-saved.ts";

const root = join(import.meta.dirname, "..");
const corpora = CORPORA;
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    only: { type: "string" },
    binary: { type: "string", default: join(root, "dist", "ra3") },
    corona: { type: "string", default: join(tmpdir(), "ra3-perf-corona") },
    // "off": the edit rows without the watcher's barrier, as strict runs on Windows and macOS (no folder
    // listed, but every indexed file stat'ed on each call).
    barrier: { type: "string", default: "on" },
  },
});
if (values.barrier !== "on" && values.barrier !== "off") {
  console.error(`bench-targets: --barrier is on or off (got ${values.barrier})`);
  process.exit(2);
}
const noBarrier = values.barrier === "off";
/** The edit rows' label: the platform path they measure when the barrier is off. */
const editLabel = (label: string) => noBarrier ? `${label} (no watcher barrier, as on Windows/macOS)` : label;
const runs = Number(values.runs);
const only = values.only ? new Set(values.only.split(",")) : null;
const binary = values.binary!;
const want = (group: string) => !only || only.has(group);
if (!existsSync(binary)) {
  console.error(`bench-targets: ${binary} is missing; run npm run build first`);
  process.exit(2);
}

interface Mod {
  readonly name: string;
  readonly args: readonly string[];
  readonly project: string;
  readonly sdk: string;
  readonly schema: string | null;
}

const UPHEAVAL = join(corpora, "upheaval");
const MODS: Record<string, Mod> = {
  upheavalPlain: { name: "Upheaval, project-only", project: UPHEAVAL, sdk: "", schema: null, args: [] },
  upheavalSchema: {
    name: "Upheaval, RA3 schema",
    project: UPHEAVAL,
    sdk: "",
    schema: join(corpora, "ra3-xsd"),
    args: ["--schema", join(corpora, "ra3-xsd")],
  },
  twSdk: {
    name: "TW SDK + Commander (SDK mode)",
    project: join(corpora, "tw-sdk", "Mods", "Commander"),
    sdk: join(corpora, "tw-sdk"),
    schema: null,
    args: ["--sdk", join(corpora, "tw-sdk")],
  },
  corona: { name: "Corona scale (generated, scale 1)", project: values.corona!, sdk: "", schema: null, args: [] },
};

/**
 * Baseline medians in seconds: main at 54c167a, the median of three runs of this script (each the median
 * of its runs) on the shared 2-core machine at load averages 3.7–6.9 (docs/performance.md, issue 16).
 * They fix the peer's implied times, so later runs are compared with the same peer.
 */
const BASELINE: Record<string, number> = {
  "cold:upheavalPlain": 1.58,
  "cold:upheavalSchema": 2.38,
  "cold:twSdk": 2.27,
  "warm:upheavalPlain": 0.344,
  "warm:upheavalSchema": 0.368,
  "warm:twSdk": 0.734,
};

/** The "today" ratios ra3 / peer (lowest, highest) and its targets, per figure. */
const RATIOS: Record<string, { readonly today: readonly [number, number]; readonly target: number }> = {
  "cold, project-only": { today: [0.42, 0.70], target: 0.2 },
  "cold, schema": { today: [1.14, 1.54], target: 0.4 },
  warm: { today: [0.41, 0.78], target: 0.3 },
};

function freshHome(): string {
  return mkdtempSync(join(tmpdir(), "ra3-bench-targets-"));
}

/** Wall time of one `ra3 …` run in ms; throws when it fails. */
function timed(args: readonly string[]): number {
  const t = performance.now();
  const r = spawnSync(binary, [...args, "--quiet", "--no-progress"], { maxBuffer: 1 << 28 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`ra3 ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  return ms;
}

/** Peak RSS (MB) of one `ra3 …` run, from GNU time; NaN without it. */
function peakRss(args: readonly string[]): number {
  if (!existsSync("/usr/bin/time")) return NaN;
  // The whole run, its save too: a cold run's save may otherwise end after the run (src/cli/detach.ts).
  const r = spawnSync("/usr/bin/time", ["-f", "%M", binary, ...args, "--quiet", "--no-progress"], {
    env: { ...process.env, RA3_WAIT_FOR_SAVE: "1" },
  });
  return Number(r.stderr.toString().trim().split("\n").pop()) / 1024;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: readonly number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const fmt = (ms: number) =>
  ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${Math.round(ms)} ms` : `${ms.toFixed(2)} ms`;

function indexArgs(m: Mod, home: string): string[] {
  return ["index", "--project", m.project, ...m.args, "--home", home];
}

/** Median cold (fresh home: no snapshot, no schema cache) and warm (snapshot, nothing changed) times. */
function coldWarm(m: Mod): { cold: number; warm: number } {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < runs; i++) {
    const home = freshHome();
    try {
      cold.push(timed(indexArgs(m, home)));
      waitForSnapshot(home); // a cold run's save may end after the run (src/cli/detach.ts)
      warm.push(timed(indexArgs(m, home)));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  return { cold: median(cold), warm: median(warm) };
}

function ensureCorona(dir: string): void {
  if (existsSync(join(dir, "Data", "Mod.xml"))) return;
  console.error(`bench-targets: generating the Corona-scale mod into ${dir}`);
  const g = spawnSync(process.execPath, [join(root, "scripts", "gen-corpus.ts"), "--out", dir], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (g.status !== 0) throw new Error("corpus generation failed");
}

/** Best time (ms) to list the project's indexed files and read every byte of them. */
function readEveryByte(dir: string): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    let bytes = 0;
    for (const f of scanProjectFiles(dir)) bytes += readFileSync(f.path).length;
    best = Math.min(best, performance.now() - t);
    if (bytes === 0) throw new Error("nothing read");
  }
  return best;
}

/**
 * Edits per edit row (at least; more with `--runs`). Five gave medians 1.5× those of twenty on one host (the first
 * edits run before the link's code is compiled: 161 ms, then 54–107), so eleven.
 */
const EDITS = 11;

/**
 * Median ms from writing an edit to a strict answer that shows it (in process, watcher on), and how many
 * strict answers missed the edit (the watcher's event came later than strict waits for it). The edit
 * renames the first `element` of the first active file defining one (`first`: at Corona scale a base
 * template hundreds of files inherit from, so their sites resolve again) or of the last one (`last`: a
 * unit's own file, which few sites name); or (`add`) adds an `element` to that file, last (`add-first`:
 * first, above the file's includes, which then move).
 */
async function editToAnswer(
  m: Mod,
  element: string,
  pick: "first" | "last" = "first",
  change: "rename" | "add" | "add-first" = "rename",
): Promise<{ ms: number; revertMs: number; missed: number; of: number }> {
  const home = freshHome();
  // A real mod from the shared corpora is edited in a copy: tests read those files while this runs.
  const copy = m.project.startsWith(corpora) ? join(mkdtempSync(join(tmpdir(), "ra3-bench-edit-")), m.name) : null;
  if (copy) cpSync(m.project, copy, { recursive: true });
  const project = copy ?? m.project;
  const cfg = resolveConfig({ project, sdk: m.sdk, schema: m.schema, home, env: {} });
  if ("envError" in cfg) throw new Error(cfg.envError);
  const service = new IndexService(cfg, noBarrier ? { watch: true, watchBarrier: null } : { watch: true });
  await service.start();
  const candidates = scanProjectFiles(project).filter((f) =>
    f.kind === "xml" && service.linked?.file(f.path)?.active &&
    new RegExp(`<${element}\\s`).test(readFileSync(f.path, "latin1"))
  );
  const target = pick === "first" ? candidates[0] : candidates[candidates.length - 1];
  if (!target) throw new Error(`no active file of ${m.name} defines a ${element}`);
  const original = readFileSync(target.path);
  const text = original.toString("latin1");
  const times: number[] = [];
  // The write back of the original and its strict answer (for `add`: an asset removed).
  const reverts: number[] = [];
  let missed = 0;
  try {
    for (let i = 0; i < Math.max(EDITS, runs); i++) {
      const marker = `BenchTargetsEdit${i}`;
      const edited = change === "add"
        ? text.replace(/<\/AssetDeclaration>/, `\t<${element} id="${marker}" />\n</AssetDeclaration>`)
        : change === "add-first"
        ? text.replace(/<AssetDeclaration[^>]*>/, (root) => `${root}\n\t<${element} id="${marker}" />`)
        : text.replace(new RegExp(`<${element}(\\s[^>]*?)\\bid="[^"]*"`), `<${element}$1id="${marker}"`);
      writeFileSync(target.path, Buffer.from(edited, "latin1"));
      const t = performance.now();
      await service.strict(30_000);
      times.push(performance.now() - t);
      if (!service.linked?.findAssets(marker).length) {
        missed++;
        while (!service.linked?.findAssets(marker).length) await service.strict(30_000);
      }
      writeFileSync(target.path, original);
      const r = performance.now();
      await service.strict(30_000);
      reverts.push(performance.now() - r);
    }
  } finally {
    writeFileSync(target.path, original);
    await service.dispose();
    rmSync(home, { recursive: true, force: true });
    if (copy) rmSync(join(copy, ".."), { recursive: true, force: true });
  }
  return { ms: median(times), revertMs: median(reverts), missed, of: times.length };
}

/** An edit → answer figure: the median, and the misses when there were any. */
function showEdit(e: { ms: number; missed: number; of: number }): string {
  return e.missed ? `${fmt(e.ms)} (${e.missed} of ${e.of} answers missed the edit)` : fmt(e.ms);
}

interface Silence {
  /** The longest wait for a `ping` answer: how long the server answered nothing. */
  readonly maxMs: number;
  /**
   * The longest ping wait in the second after the index became ready (a cold build saves its first
   * snapshot then: a client asking right after the build waits for it).
   */
  readonly afterReadyMs: number;
  /** The longest wait for a `get_status` answer (a warm start's first one waits for the stored index). */
  readonly statusMaxMs: number;
  readonly calls: number;
  readonly readyMs: number;
}

/** How long pings go on after the index is ready (the first snapshot's save falls in it). */
const AFTER_READY_MS = 1000;

/**
 * Spawns `ra3 mcp` and, until get_status says the index is ready and complete, keeps one `ping` and one
 * `get_status` in flight (each sent again 2 ms after its answer): the longest ping wait is how long the
 * server was silent; the longest get_status wait includes what a call waits for by design (a saved
 * snapshot decoded and linked). Pings go on for {@link AFTER_READY_MS} after that, measured apart.
 */
async function mcpSilence(m: Mod, home: string): Promise<Silence> {
  const mcp = rawMcp(binary, ["mcp", "--project", m.project, ...m.args, "--home", home]);
  const request = mcp.request;
  const t0 = performance.now();
  await request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "b", version: "1" },
  });
  mcp.notify("notifications/initialized");
  let maxMs = 0;
  let afterReadyMs = 0;
  let readyAt = Infinity;
  let statusMaxMs = 0;
  let calls = 0;
  let readyMs = NaN;
  let ready = false;
  const pause = () => new Promise((r) => setTimeout(r, 2));
  const pings = (async () => {
    while (!ready || performance.now() < readyAt + AFTER_READY_MS) {
      const s = performance.now();
      await request("ping", {});
      const waited = performance.now() - s;
      if (s < readyAt) maxMs = Math.max(maxMs, waited);
      else afterReadyMs = Math.max(afterReadyMs, waited);
      await pause();
    }
  })();
  for (;;) {
    const s = performance.now();
    const line = await request("tools/call", { name: "get_status", arguments: {} });
    statusMaxMs = Math.max(statusMaxMs, performance.now() - s);
    calls++;
    const r = JSON.parse(line).result?.structuredContent?.index as { state: string; complete: boolean } | undefined;
    if (r && r.state === "ready" && r.complete) {
      readyAt = performance.now();
      readyMs = readyAt - t0;
      break;
    }
    if (performance.now() - t0 > 120_000) throw new Error("the server never became ready");
    await pause();
  }
  ready = true;
  await pings;
  await mcp.close();
  return { maxMs, afterReadyMs, statusMaxMs, calls, readyMs };
}

/** find_asset misses at Corona scale in process: p50 and p99 (ms) over typos of real ids and unknown ids. */
async function findMiss(m: Mod): Promise<{ p50: number; p99: number; first: number }> {
  const home = freshHome();
  const cfg = resolveConfig({ project: m.project, sdk: m.sdk, schema: m.schema, home, env: {} });
  if ("envError" in cfg) throw new Error(cfg.envError);
  const service = new IndexService(cfg);
  await service.start();
  const linked = service.linked!;
  const ids = linked.assets.map((a) => a.id);
  const times: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const real = ids[(i * 2654435761) % ids.length];
    const id = i % 2 ? `${real.slice(0, -1)}#` : `NoSuchAsset${i}`;
    const t = performance.now();
    const r = findAsset(linked, id, null);
    times.push(performance.now() - t);
    if (!("error" in r)) throw new Error(`${id} was found`);
  }
  await service.dispose();
  rmSync(home, { recursive: true, force: true });
  return { p50: pct(times, 50), p99: pct(times, 99), first: times[0] };
}

type Row = readonly [figure: string, measured: string, peer: string, ratio: string, target: string];
const rows: Row[] = [];

/** A peer-relative row: the implied peer time from the baseline and the ratio range. */
function peerRow(figure: keyof typeof RATIOS, label: string, key: string, ms: number): void {
  const r = RATIOS[figure];
  const base = BASELINE[key] * 1000;
  const peerLo = base / r.today[1];
  const peerHi = base / r.today[0];
  rows.push([
    `${figure}: ${label}`,
    fmt(ms),
    `${fmt(peerLo)}–${fmt(peerHi)}`,
    `${(ms / peerHi).toFixed(2)}–${(ms / peerLo).toFixed(2)}`,
    `≤ ${r.target} (≤ ${fmt(peerLo * r.target)})`,
  ]);
}

const load0 = loadavg();
console.log(
  `bench-targets: ${binary}, ${runs} runs per figure; load average ${load0.map((x) => x.toFixed(2)).join(" ")}`,
);

if (want("cold") || want("warm")) {
  for (const key of ["upheavalPlain", "upheavalSchema", "twSdk"] as const) {
    const m = MODS[key];
    if (!existsSync(m.project)) {
      console.error(`${m.name}: ${m.project} is absent, skipped`);
      continue;
    }
    const { cold, warm } = coldWarm(m);
    if (want("cold")) {
      peerRow(key === "upheavalPlain" ? "cold, project-only" : "cold, schema", m.name, `cold:${key}`, cold);
    }
    if (want("warm")) peerRow("warm", m.name, `warm:${key}`, warm);
  }
}

const corona = MODS.corona;
if (want("corona") || want("edit") || want("edit-add") || want("silence") || want("miss") || want("rss")) {
  ensureCorona(corona.project);
}
if (want("corona")) {
  const { cold, warm } = coldWarm(corona);
  const read = readEveryByte(corona.project);
  rows.push([
    "cold, Corona scale, vs listing and reading every byte",
    `${fmt(cold)} / ${fmt(read)} = ${(cold / read).toFixed(1)}×`,
    "",
    "",
    "≤ 3×",
  ]);
  rows.push(["warm, Corona scale", fmt(warm), "", "", "≤ 0.3 s"]);
}
if (want("edit")) {
  rows.push([
    editLabel("edit → answer (strict), Corona scale"),
    showEdit(await editToAnswer(corona, "WeaponTemplate")),
    "",
    "",
    "≤ 100 ms",
  ]);
  rows.push([
    editLabel("edit → answer (strict), Corona scale, a unit's own file"),
    showEdit(await editToAnswer(corona, "WeaponTemplate", "last")),
    "",
    "",
    "≤ 100 ms",
  ]);
}
if (want("edit") || want("edit-add")) {
  rows.push([
    editLabel("edit → answer (strict), Corona scale, an asset added to a unit's own file / removed again"),
    ((e) => `${showEdit(e)} / ${fmt(e.revertMs)}`)(await editToAnswer(corona, "WeaponTemplate", "last", "add")),
    "",
    "",
    "≤ 100 ms",
  ]);
  rows.push([
    editLabel(
      "edit → answer (strict), Corona scale, an asset added first in a unit's own file (above its includes) / removed again",
    ),
    ((e) => `${showEdit(e)} / ${fmt(e.revertMs)}`)(await editToAnswer(corona, "WeaponTemplate", "last", "add-first")),
    "",
    "",
    "≤ 100 ms",
  ]);
}
if (want("edit")) {
  if (existsSync(UPHEAVAL)) {
    rows.push([
      editLabel("edit → answer (strict), Upheaval (RA3 schema)"),
      showEdit(await editToAnswer(MODS.upheavalSchema, "WeaponTemplate")),
      "",
      "",
      "≤ 30 ms",
    ]);
  }
}
/** Silence rows for `m`: a cold build in a fresh home (no snapshot, no schema cache), then a warm start. */
async function silenceRows(m: Mod, label: string): Promise<void> {
  const cold: Silence[] = [];
  const warm: Silence[] = [];
  for (let i = 0; i < runs; i++) {
    const home = freshHome();
    try {
      cold.push(await mcpSilence(m, home));
      warm.push(await mcpSilence(m, home));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  const show = (s: Silence[], pick: (x: Silence) => number) =>
    `longest ${fmt(median(s.map(pick)))} (median of ${s.length}; worst ${fmt(Math.max(...s.map(pick)))}; ${
      median(s.map((x) => x.calls))
    } get_status calls, ready at ${fmt(median(s.map((x) => x.readyMs)))})`;
  const ping = (x: Silence) => x.maxMs;
  const status = (x: Silence) => x.statusMaxMs;
  rows.push([`server silent (ping wait), ${label} cold build`, show(cold, ping), "", "", "≤ 50 ms"]);
  rows.push([`server silent (ping wait), ${label} warm start`, show(warm, ping), "", "", "≤ 50 ms"]);
  const after = (x: Silence) => x.afterReadyMs;
  rows.push([
    `server silent (ping wait), ${label}, 1 s after a cold build (its first save)`,
    show(cold, after),
    "",
    "",
    "≤ 50 ms",
  ]);
  rows.push([`get_status wait, ${label} cold build`, show(cold, status), "", "", "≤ 50 ms"]);
  rows.push([
    `get_status wait, ${label} warm start (waits for the stored index)`,
    show(warm, status),
    "",
    "",
    "decode + link",
  ]);
}
if (want("silence")) await silenceRows(corona, "Corona");
// The XSD set's load (821 files parsed in a fresh home, the schema cache read in a warm one).
if (want("silence-schema")) await silenceRows(MODS.upheavalSchema, "Upheaval (RA3 schema)");
if (want("miss")) {
  const miss = await findMiss(corona);
  rows.push([
    "find_asset miss, Corona scale, p50 / p99 (in process)",
    `${fmt(miss.p50)} / ${fmt(miss.p99)} (the first: ${fmt(miss.first)})`,
    "",
    "",
    "p50 ≤ 1 ms",
  ]);
}
if (want("rss")) {
  const h1 = freshHome();
  const h2 = freshHome();
  const rss1 = peakRss(indexArgs(corona, h1));
  const rss2 = existsSync(MODS.twSdk.project) ? peakRss(indexArgs(MODS.twSdk, h2)) : NaN;
  rmSync(h1, { recursive: true, force: true });
  rmSync(h2, { recursive: true, force: true });
  rows.push([
    "peak RSS cold, Corona scale / TW SDK",
    `${Math.round(rss1)} / ${Math.round(rss2)} MB`,
    "",
    "",
    "≤ 400 MB",
  ]);
}

console.log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(" ")}\n`);
console.log("| figure | measured (median) | peer (implied) | ratio ra3 / peer | target |");
console.log("|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
