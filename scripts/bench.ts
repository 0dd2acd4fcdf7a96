// The scale benchmark (issue 4, DESIGN.md §Targets): generates the synthetic Corona-scale mod at each
// scale (deterministic, cached under /tmp), then measures, with the compiled binary where a whole process
// is meant:
//   cold index (no snapshot), warm start with no change, after touching
//   1 and 100 files, one edit → updated answer (watcher and strict), find/refs/uses latency in process,
//   peak RSS, snapshot size, .w3x shallow-scan throughput.
// Usage: bun scripts/bench.ts [--scales 1,0.5] [--runs 3] [--keep]
// Prints a markdown table per scale (the numbers in docs/performance.md come from here).
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { scanShallow } from "../src/xml/shallow.ts";
import { resolveConfig } from "../src/workspace/config.ts";
import { IndexService } from "../src/workspace/service.ts";
import { Workspace } from "../src/workspace/workspace.ts";
import { findAsset } from "../src/query/assets.ts";
import { findReferences } from "../src/query/references.ts";
import { uses } from "../src/query/uses.ts";

const root = join(import.meta.dirname, "..");
const binary = join(root, "dist", "ra3");
const { values } = parseArgs({
  options: {
    scales: { type: "string", default: "1,0.5" },
    runs: { type: "string", default: "3" },
    keep: { type: "boolean" },
  },
});
const scales = values.scales!.split(",").map(Number);
const runs = Number(values.runs);

if (!existsSync(binary)) {
  console.error("bench: dist/ra3 is missing; run npm run build first");
  process.exit(2);
}

interface Proc {
  ms: number;
  rssMb: number;
  json: { result: { timings: Record<string, number> | null; start: { mode: string; changed: number } } } | null;
}

function ra3(args: string[], env: Record<string, string> = {}): Proc {
  const t = performance.now();
  const r = spawnSync(binary, [...args, "--json", "--no-progress"], {
    env: { ...process.env, ...env },
    maxBuffer: 1 << 28,
  });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`ra3 ${args.join(" ")} failed: ${r.stderr}`);
  // GNU time is not everywhere; read peak RSS from /usr/bin/time when present, else from a second run.
  return { ms, rssMb: 0, json: JSON.parse(r.stdout.toString()) };
}

function peakRssMb(args: string[], env: Record<string, string> = {}): number {
  if (!existsSync("/usr/bin/time")) return NaN;
  const r = spawnSync("/usr/bin/time", ["-f", "%M", binary, ...args, "--no-progress", "--quiet"], {
    env: { ...process.env, ...env },
  });
  const kb = Number(r.stderr.toString().trim().split("\n").pop());
  return kb / 1024;
}

const best = (xs: number[]) => Math.min(...xs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const fmt = (
  ms: number,
) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${Math.round(ms)} ms` : `${ms.toFixed(2)} ms`);

function walk(dir: string, ext: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.toLowerCase().endsWith(ext)).map((f) =>
    join(dir, f)
  );
}

function touch(files: string[]): void {
  const now = new Date();
  for (const f of files) utimesSync(f, now, now);
}

async function measure(scale: number): Promise<void> {
  const mod = join(tmpdir(), `ra3-bench-s${scale}`);
  if (!existsSync(join(mod, "Data", "Mod.xml"))) {
    console.error(`bench: generating scale ${scale} into ${mod}`);
    const g = spawnSync(process.execPath, [
      join(root, "scripts", "gen-corpus.ts"),
      "--out",
      mod,
      "--scale",
      String(scale),
    ], { stdio: ["ignore", "ignore", "inherit"] });
    if (g.status !== 0) throw new Error("corpus generation failed");
  }
  const xml = walk(join(mod, "Data"), ".xml");
  const w3x = walk(join(mod, "Art"), ".w3x");
  const xmlMb = xml.reduce((a, f) => a + statSync(f).size, 0) / 1e6;
  const w3xMb = w3x.reduce((a, f) => a + statSync(f).size, 0) / 1e6;

  const rows: [string, string, string][] = [];
  const cold: number[] = [];
  let phases: Record<string, number> | null = null;
  let home = "";
  for (let i = 0; i < runs; i++) {
    home = mkdtempSync(join(tmpdir(), "ra3-bench-home-"));
    const p = ra3(["index", "--project", mod, "--home", home]);
    cold.push(p.ms);
    phases = p.json?.result.timings ?? null;
  }
  const coldRss = peakRssMb(["index", "--project", mod, "--home", mkdtempSync(join(tmpdir(), "ra3-bench-home-"))]);
  const warm: number[] = [];
  for (let i = 0; i < runs; i++) warm.push(ra3(["index", "--project", mod, "--home", home]).ms);
  const warmRss = peakRssMb(["index", "--project", mod, "--home", home]);
  const touch1: number[] = [];
  const touch100: number[] = [];
  for (let i = 0; i < runs; i++) {
    touch([xml[(i * 7919) % xml.length]]);
    touch1.push(ra3(["index", "--project", mod, "--home", home]).ms);
    touch(Array.from({ length: 100 }, (_, k) => xml[(i * 104729 + k * 7919) % xml.length]));
    touch100.push(ra3(["index", "--project", mod, "--home", home]).ms);
  }
  const snapDir = join(home, "snapshots");
  const snapMb = readdirSync(snapDir).filter((f) => f.endsWith(".msgpack")).reduce(
    (a, f) => a + statSync(join(snapDir, f)).size,
    0,
  ) / 1e6;

  // In process: query latency and edit → answer latency.
  const cfg = resolveConfig({ project: mod, sdk: "", schema: null, home });
  if ("envError" in cfg) throw new Error(cfg.envError);
  const ws = new Workspace(cfg);
  await ws.build(() => {}, undefined, { publishXmlPhase: false });
  const linked = ws.linked!;
  const ids = linked.assets.filter((a) => a.origin === "project").map((a) => ({ id: a.id, type: a.type }));
  const pick = (i: number) => ids[(i * 2654435761) % ids.length];
  const lat: Record<string, number[]> = { find: [], refs: [], uses: [] };
  for (let i = 0; i < 3000; i++) {
    const a = pick(i);
    let t = performance.now();
    findAsset(linked, a.id, a.type);
    lat.find.push(performance.now() - t);
    t = performance.now();
    findReferences(linked, a.id, { type: a.type });
    lat.refs.push(performance.now() - t);
    t = performance.now();
    uses(linked, a.id, { type: a.type, depth: 2 });
    lat.uses.push(performance.now() - t);
  }
  ws.close();

  const service = new IndexService(cfg, { watch: true, debounceMs: 20 });
  await service.start();
  const target = xml.find((f) => readFileSync(f, "utf8").includes("<WeaponTemplate"))!;
  const editWatch: number[] = [];
  const editStrict: number[] = [];
  for (let i = 0; i < runs; i++) {
    const marker = `BenchEdit${scale.toString().replace(".", "_")}x${i}`;
    const text = readFileSync(target, "utf8");
    writeFileSync(target, text.replace(/<WeaponTemplate\s+id="[^"]*"/, `<WeaponTemplate id="${marker}"`));
    const t = performance.now();
    while (!service.linked?.findAssets(marker).length) {
      await new Promise((r) => setTimeout(r, 1));
      if (performance.now() - t > 10_000) throw new Error("the edit never showed up");
    }
    editWatch.push(performance.now() - t);
    const marker2 = `${marker}b`;
    writeFileSync(target, text.replace(/<WeaponTemplate\s+id="[^"]*"/, `<WeaponTemplate id="${marker2}"`));
    const t2 = performance.now();
    await service.strict(10_000);
    if (!service.linked?.findAssets(marker2).length) throw new Error("strict refresh missed the edit");
    editStrict.push(performance.now() - t2);
    writeFileSync(target, text);
    await service.strict(10_000);
  }
  await service.dispose();

  // Shallow scan throughput over the .w3x bytes in memory.
  const art = w3x.map((f) => readFileSync(f));
  const scanRuns: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    for (const b of art) scanShallow(b);
    scanRuns.push(performance.now() - t);
  }
  const gbps = (w3xMb / 1000) / (best(scanRuns) / 1000);

  rows.push(["cold full index (no snapshot), whole process", fmt(median(cold)), "≤ 1.5 s"]);
  if (phases) {
    rows.push([
      "  phases of the last cold run",
      Object.entries(phases).filter(([k]) => k !== "totalMs").map(([k, v]) => `${k.replace("Ms", "")} ${Math.round(v)}`)
        .join(", "),
      "",
    ]);
  }
  rows.push(["warm start, nothing changed", fmt(median(warm)), "≤ 0.3 s"]);
  rows.push(["warm start after touching 1 file", fmt(median(touch1)), ""]);
  rows.push(["warm start after touching 100 files", fmt(median(touch100)), ""]);
  rows.push(["one edit → answer (watcher, 20 ms debounce)", fmt(median(editWatch)), "≤ 0.1 s"]);
  rows.push(["one edit → answer (consistency strict)", fmt(median(editStrict)), "≤ 0.1 s"]);
  for (const k of ["find", "refs", "uses"]) {
    rows.push([`${k} in process, p50 / p99`, `${fmt(pct(lat[k], 50))} / ${fmt(pct(lat[k], 99))}`, "p99 ≤ 1 ms"]);
  }
  rows.push(["peak RSS, cold / warm", `${Math.round(coldRss)} MB / ${Math.round(warmRss)} MB`, "≤ 400 MB"]);
  rows.push(["snapshot size", `${snapMb.toFixed(2)} MB`, "≤ 15 MB"]);
  rows.push([".w3x shallow scan throughput (in memory)", `${gbps.toFixed(2)} GB/s`, "≥ 1 GB/s"]);

  console.log(
    `\n### scale ${scale}: ${xml.length} XML (${xmlMb.toFixed(1)} MB), ${w3x.length} .w3x (${
      w3xMb.toFixed(0)
    } MB), ${linked.stats.assets} assets, ${linked.stats.references} references\n`,
  );
  console.log("| figure | measured (median of " + runs + ") | target |");
  console.log("|---|---|---|");
  for (const [a, b, c] of rows) console.log(`| ${a} | ${b} | ${c} |`);
  if (!values.keep) rmSync(home, { recursive: true, force: true });
}

for (const s of scales) await measure(s);
