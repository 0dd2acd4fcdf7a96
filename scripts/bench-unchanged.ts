// What a command costs on a project that has not changed since its snapshot (issue 15 item 7): one cold
// `ra3 index` makes the snapshot, then `ra3 index` and `ra3 find` run `--runs` times each, with the
// compiled binary as a user runs it. Prints a markdown table: median and best wall time, peak RSS, and
// whether the run rewrote the snapshot file (its inode or mtime changed). Then, in process, what the
// save at the end of such a run costs: a rewrite (encode, write, fsync, rename) against the check that
// finds the state already on disk.
// Usage: bun scripts/bench-unchanged.ts [--project DIR] [--binary dist/ra3] [--runs 5]
// Without --project the synthetic Corona-scale mod (scale 1, as scripts/bench.ts makes it) is used.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SnapshotStore } from "../src/store/snapshot-store.ts";
import { TOOL_VERSION } from "../src/version.ts";
// The whole run, its save too: a cold run's save may otherwise end after the run (src/cli/detach.ts).
process.env.RA3_WAIT_FOR_SAVE = "1";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    project: { type: "string" },
    binary: { type: "string", default: join(root, "dist", "ra3") },
    runs: { type: "string", default: "5" },
  },
});
const binary = values.binary!;
const runs = Number(values.runs);
if (!existsSync(binary)) {
  console.error(`bench-unchanged: ${binary} is missing; run npm run build first`);
  process.exit(2);
}

let project = values.project;
if (!project) {
  project = join(tmpdir(), "ra3-bench-s1");
  if (!existsSync(join(project, "Data", "Mod.xml"))) {
    console.error(`bench-unchanged: generating scale 1 into ${project}`);
    const g = spawnSync(process.execPath, [join(root, "scripts", "gen-corpus.ts"), "--out", project, "--scale", "1"], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (g.status !== 0) throw new Error("corpus generation failed");
  }
}

const home = mkdtempSync(join(tmpdir(), "ra3-bench-unchanged-"));
const hasTime = existsSync("/usr/bin/time");

/** One whole-process run: wall ms and peak RSS (MB, NaN without /usr/bin/time). */
function run(args: string[]): { ms: number; rssMb: number } {
  const argv = [...args, "--project", project!, "--home", home, "--no-progress", "--quiet"];
  const t = performance.now();
  const r = hasTime
    ? spawnSync("/usr/bin/time", ["-f", "%M", binary, ...argv], { maxBuffer: 1 << 28 })
    : spawnSync(binary, argv, { maxBuffer: 1 << 28 });
  const ms = performance.now() - t;
  if (r.status !== 0 && !(args[0] === "find" && r.status === 1)) {
    throw new Error(`ra3 ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  }
  const kb = hasTime ? Number(r.stderr.toString().trim().split("\n").pop()) : NaN;
  return { ms, rssMb: kb / 1024 };
}

function snapshotId(): string {
  const dir = join(home, "snapshots");
  const f = readdirSync(dir).find((n) => n.endsWith(".msgpack"))!;
  const st = statSync(join(dir, f));
  return `${st.ino}/${st.mtimeMs}`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);

run(["index"]); // cold: makes the snapshot
const rows: string[] = [];
for (const args of [["index"], ["find", "NoSuchAssetAnywhere"]]) {
  const ms: number[] = [];
  const rss: number[] = [];
  let rewrites = 0;
  for (let i = 0; i < runs; i++) {
    const before = snapshotId();
    const r = run(args);
    ms.push(r.ms);
    rss.push(r.rssMb);
    if (snapshotId() !== before) rewrites++;
  }
  rows.push(
    `| \`ra3 ${args.join(" ")}\` | ${fmt(median(ms))} | ${fmt(Math.min(...ms))} | ${
      Math.round(Math.max(...rss))
    } MB | ${rewrites} of ${runs} |`,
  );
}
console.log(`project ${project}, binary ${binary}, ${runs} runs each after one cold index\n`);
console.log("| command (unchanged project) | median | best | peak RSS | snapshot rewritten |");
console.log("|---|---|---|---|---|");
for (const r of rows) console.log(r);

// In process: the save of an unchanged index, rewritten (a store that has not seen the file) or skipped.
const meta = new SnapshotStore(home, project).meta();
const times = { rewrite: [] as number[], skip: [] as number[] };
let bytes = 0;
for (let i = 0; i < runs; i++) {
  const store = new SnapshotStore(home, project);
  const loaded = store.load({ projectDir: project, toolVersion: TOOL_VERSION, schemaKey: meta?.schemaKey });
  if (!loaded.ok) {
    console.log(`\n(in-process save not measured: ${loaded.message}; is --binary this source's build?)`);
    break;
  }
  let t = performance.now();
  const skipped = store.save(loaded.snapshot);
  times.skip.push(performance.now() - t);
  if (skipped.saved || skipped.reason !== "unchanged") throw new Error("expected an unchanged save");
  t = performance.now();
  const written = new SnapshotStore(home, project).save(loaded.snapshot);
  times.rewrite.push(performance.now() - t);
  if (!written.saved) throw new Error(written.message);
  bytes = written.size;
}
if (times.skip.length) {
  const ms = (xs: number[]) => `${median(xs).toFixed(1)} ms`;
  console.log(`\n| save at the end of the run (in process, ${(bytes / 1e6).toFixed(2)} MB snapshot) | median |`);
  console.log("|---|---|");
  console.log(`| rewrite (encode, write, fsync, rename; before this change) | ${ms(times.rewrite)} |`);
  console.log(`| state already on disk: not written | ${ms(times.skip)} |`);
}
rmSync(home, { recursive: true, force: true });
