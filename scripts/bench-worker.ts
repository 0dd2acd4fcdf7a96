// Does the parse worker earn its place (issue 16 item 9)? Cold `ra3 index` runs (fresh home each) of the
// compiled binary with the worker on and off (RA3_WORKERS=0), interleaved, on the generated Corona-scale
// mod and the real corpora; with --busy N, N extra processes spin on a core each for the whole run (a
// loaded machine). Prints the medians, their ratio and the load average before and after.
// Usage: bun scripts/bench-worker.ts [--runs 5] [--busy 0] [--binary dist/ra3] [--corona /tmp/ra3-perf-corona]
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const root = join(import.meta.dirname, "..");
const corpora = join(root, "..", "shared", "corpora");
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    busy: { type: "string", default: "0" },
    binary: { type: "string", default: join(root, "dist", "ra3") },
    corona: { type: "string", default: join(tmpdir(), "ra3-perf-corona") },
  },
});
const runs = Number(values.runs);
const binary = values.binary!;
if (!existsSync(binary)) throw new Error(`${binary} is missing: run npm run build first`);

const projects: { name: string; args: string[] }[] = [
  { name: "Corona scale (generated, scale 1)", args: ["--project", values.corona!] },
  {
    name: "Upheaval, RA3 schema",
    args: ["--project", join(corpora, "upheaval"), "--schema", join(corpora, "ra3-xsd")],
  },
  {
    name: "TW SDK + Commander",
    args: ["--project", join(corpora, "tw-sdk", "Mods", "Commander"), "--sdk", join(corpora, "tw-sdk")],
  },
].filter((p) => existsSync(p.args[1]));

function cold(args: readonly string[], workers: boolean): number {
  const home = mkdtempSync(join(tmpdir(), "ra3-bench-worker-"));
  try {
    const t = performance.now();
    const r = spawnSync(binary, ["index", ...args, "--home", home, "--quiet", "--no-progress"], {
      env: { ...process.env, RA3_WORKERS: workers ? "1" : "0" },
    });
    if (r.status !== 0) throw new Error(`ra3 index failed: ${r.stderr}`);
    return performance.now() - t;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const busy: ChildProcess[] = [];
for (let i = 0; i < Number(values.busy); i++) {
  busy.push(spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
}
await new Promise((r) => setTimeout(r, busy.length ? 2000 : 0));
const before = loadavg();
const rows: string[] = [];
try {
  for (const p of projects) {
    const on: number[] = [];
    const off: number[] = [];
    for (let i = 0; i < runs; i++) {
      on.push(cold(p.args, true));
      off.push(cold(p.args, false));
    }
    rows.push(
      `| ${p.name} | ${(median(on) / 1000).toFixed(2)} s | ${(median(off) / 1000).toFixed(2)} s | ${
        (median(off) / median(on)).toFixed(2)
      } |`,
    );
  }
} finally {
  for (const b of busy) b.kill();
}
const after = loadavg();
console.log(
  `cold ra3 index, worker on / off, ${runs} interleaved runs each, ${busy.length} busy process(es); load average ${
    before.map((x) => x.toFixed(2)).join(" ")
  } before, ${after.map((x) => x.toFixed(2)).join(" ")} after\n`,
);
console.log("| project | worker on (median) | worker off (median) | off / on |");
console.log("|---|---|---|---|");
for (const r of rows) console.log(r);
