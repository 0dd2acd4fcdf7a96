// Peak memory of cold builds (issue 16 item 8: ≤ 400 MB at Corona scale and on a full SDK): one cold
// `ra3 index` (fresh home: no snapshot, no schema cache) of each project under GNU time, several runs,
// printed as a table of the peak RSS (median and range) with the wall time. Projects: the generated
// Corona-scale mod (generated into /tmp when missing), the TW SDK with its Commander mod in SDK mode,
// Upheaval with the RA3 XSD set and project-only.
// Usage: bun scripts/bench-memory.ts [--runs 3] [--only corona,tw-sdk,upheaval-schema,upheaval]
//                                    [--binary dist/ra3] [--corona /tmp/ra3-perf-corona]
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CORPORA } from "./corpora.ts";
// The whole run, its save too: a cold run's save may otherwise end after the run (src/cli/detach.ts).
process.env.RA3_WAIT_FOR_SAVE = "1";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    only: { type: "string" },
    binary: { type: "string", default: join(root, "dist", "ra3") },
    corona: { type: "string", default: join(tmpdir(), "ra3-perf-corona") },
  },
});
const runs = Number(values.runs);
const binary = values.binary!;
if (!existsSync(binary)) {
  console.error(`bench-memory: ${binary} is missing; run npm run build first`);
  process.exit(2);
}
if (!existsSync("/usr/bin/time")) {
  console.error("bench-memory: needs GNU time at /usr/bin/time (apt-get install time)");
  process.exit(2);
}

const PROJECTS: Record<string, readonly string[]> = {
  corona: ["--project", values.corona!],
  "tw-sdk": ["--project", join(CORPORA, "tw-sdk", "Mods", "Commander"), "--sdk", join(CORPORA, "tw-sdk")],
  "upheaval-schema": ["--project", join(CORPORA, "upheaval"), "--schema", join(CORPORA, "ra3-xsd")],
  upheaval: ["--project", join(CORPORA, "upheaval")],
};
const only = values.only ? values.only.split(",") : Object.keys(PROJECTS);

if (only.includes("corona") && !existsSync(join(values.corona!, "Data", "Mod.xml"))) {
  console.error(`bench-memory: generating the Corona-scale mod into ${values.corona}`);
  const g = spawnSync(process.execPath, [join(root, "scripts", "gen-corpus.ts"), "--out", values.corona!], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (g.status !== 0) throw new Error("corpus generation failed");
}

/** Peak RSS (MB) and wall time (s) of one cold `ra3 index`. */
function cold(args: readonly string[]): { mb: number; s: number } {
  const home = mkdtempSync(join(tmpdir(), "ra3-bench-memory-"));
  try {
    const r = spawnSync("/usr/bin/time", [
      "-f",
      "%M %e",
      binary,
      "index",
      ...args,
      "--home",
      home,
      "--quiet",
      "--no-progress",
    ]);
    if (r.status !== 0) throw new Error(`ra3 index ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
    const [kb, s] = r.stderr.toString().trim().split("\n").pop()!.split(" ").map(Number);
    return { mb: kb / 1024, s };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `load average before: ${loadavg().map((x) => x.toFixed(2)).join(" ")}; ${binary}; ${runs} cold runs each\n`,
);
console.log("| project | peak RSS, median | range | wall, median |");
console.log("|---|---:|---:|---:|");
for (const name of only) {
  const args = PROJECTS[name];
  if (!args) throw new Error(`unknown project ${name}`);
  const rs = Array.from({ length: runs }, () => cold(args));
  const mbs = rs.map((r) => r.mb);
  console.log(
    `| ${name} | ${Math.round(median(mbs))} MB | ${Math.round(Math.min(...mbs))}–${Math.round(Math.max(...mbs))} MB | ${
      median(rs.map((r) => r.s)).toFixed(2)
    } s |`,
  );
}
console.log(`\nload average after: ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
