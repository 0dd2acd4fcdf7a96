// What the schema costs (issue 16 item 5: schema mode ≤ 1.3× project-only). Three measurements, each
// printed as a table with the machine's load average:
//   process   cold `ra3 index` of Upheaval project-only and with the RA3 XSD set (fresh home each, so the
//             XSDs are parsed), interleaved; wall time, the build's own phase timings, peak RSS
//   parse     the parse phase alone: every Upheaval file (XML and art) read into memory, then parsed into
//             records with no schema and with the RA3 schema; each mode in its own fresh process (a cold
//             JIT, as in a CLI run): the first pass and the best of the later passes
//   xsd       loading the RA3 XSD set without the model cache (read, parse, build), in a fresh process:
//             the first load and the best of the later loads
// Usage: bun scripts/bench-schema.ts [--runs 5] [--only process,parse,xsd] [--binary dist/ra3[,other]]
// Build first for `process` (npm run build). With several binaries (comma-separated) the process runs of
// all of them are interleaved round by round, so a shared machine's load falls on each alike.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CORPORA } from "./corpora.ts";
import { scanProjectFiles } from "../src/project/scan.ts";
import { parseFile } from "../src/index/parse-file.ts";
import { loadSchema } from "../src/schema/load.ts";
import { Schema } from "../src/schema/schema.ts";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    only: { type: "string" },
    binary: { type: "string", default: join(root, "dist", "ra3") },
    child: { type: "string" },
  },
});
const runs = Number(values.runs);
const UPHEAVAL = join(CORPORA, "upheaval");
const XSD = join(CORPORA, "ra3-xsd");

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/** Child mode: one measurement in this (fresh) process, printed as JSON on stdout. */
function child(mode: string): void {
  if (mode === "xsd") {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const r = loadSchema(XSD);
      times.push(performance.now() - t);
      if (!r.model) throw new Error("the RA3 XSD set did not load");
    }
    console.log(JSON.stringify({ first: times[0], best: Math.min(...times.slice(1)) }));
    return;
  }
  // The schema is loaded before timing in both modes (so the tokenizer is equally warm): only the parse
  // is measured.
  const loaded = new Schema(loadSchema(XSD).model!);
  const schema = mode === "schema" ? loaded : null;
  const files = scanProjectFiles(UPHEAVAL).filter((f) => f.kind === "xml" || f.kind === "w3x");
  const bytes = files.map((f) => readFileSync(f.path));
  const times: number[] = [];
  let sites = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    sites = 0;
    for (let j = 0; j < files.length; j++) sites += parseFile(files[j].path, bytes[j], schema).refs.length;
    times.push(performance.now() - t);
  }
  const mb = bytes.reduce((n, b) => n + b.length, 0) / 1e6;
  console.log(JSON.stringify({ first: times[0], best: Math.min(...times.slice(1)), sites, files: files.length, mb }));
}

function runChild(mode: string): { first: number; best: number; sites?: number; files?: number; mb?: number } {
  const r = spawnSync(process.execPath, [import.meta.filename, "--child", mode, "--runs", String(runs)], {
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(`child ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.toString());
}

interface ProcessRun {
  readonly wall: number;
  readonly rssMb: number;
  readonly timings: Record<string, number>;
}

/** One cold `ra3 index --json` (fresh home) of `binary` under GNU time. */
function coldIndex(binary: string, schema: boolean): ProcessRun {
  const home = mkdtempSync(join(tmpdir(), "ra3-bench-schema-"));
  try {
    const args = ["index", "--project", UPHEAVAL, ...(schema ? ["--schema", XSD] : []), "--home", home];
    const t = performance.now();
    const r = spawnSync("/usr/bin/time", ["-f", "%M", binary, ...args, "--json", "--no-progress"], {
      maxBuffer: 1 << 28,
    });
    const wall = performance.now() - t;
    if (r.status !== 0) throw new Error(`ra3 index failed (${r.status}): ${r.stderr}`);
    const rssMb = Number(r.stderr.toString().trim().split("\n").pop()) / 1024;
    return { wall, rssMb, timings: JSON.parse(r.stdout.toString()).result.timings };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (values.child) {
  child(values.child);
} else {
  const only = values.only ? new Set(values.only.split(",")) : null;
  const want = (g: string) => !only || only.has(g);
  console.log(`load average before: ${loadavg().map((x) => x.toFixed(2)).join(" ")}; ${runs} runs\n`);
  if (want("process")) {
    const binaries = values.binary!.split(",");
    for (const b of binaries) if (!existsSync(b)) throw new Error(`${b} is missing; run npm run build first`);
    const plain = binaries.map((): ProcessRun[] => []);
    const typed = binaries.map((): ProcessRun[] => []);
    for (let i = 0; i < runs; i++) {
      binaries.forEach((b, k) => {
        plain[k].push(coldIndex(b, false));
        typed[k].push(coldIndex(b, true));
      });
    }
    const m = (rs: ProcessRun[], f: (r: ProcessRun) => number) => median(rs.map(f));
    const rows: [string, (r: ProcessRun) => number, boolean][] = [
      ["wall (whole process)", (r) => r.wall, true],
      ["schema load (the XSDs parsed)", (r) => r.timings.schemaMs, false],
      ["XML parse", (r) => r.timings.parseMs, true],
      ["art", (r) => r.timings.artMs, true],
      ["link", (r) => r.timings.linkMs, true],
      ["build total", (r) => r.timings.totalMs, true],
    ];
    binaries.forEach((b, k) => {
      console.log(`cold \`ra3 index\`, Upheaval (fresh home), ${b}, medians of ${runs} interleaved runs\n`);
      console.log("| figure | project-only | RA3 schema | schema / project-only |");
      console.log("|---|---:|---:|---:|");
      for (const [name, f, r] of rows) {
        const a = m(plain[k], f);
        const t = m(typed[k], f);
        console.log(`| ${name} | ${fmt(a)} | ${fmt(t)} | ${r ? ratio(t, a) : ""} |`);
      }
      const ratios = plain[k].map((p, i) => typed[k][i].wall / p.wall).sort((x, y) => x - y);
      console.log(
        `| wall ratio per round (min / median / max) | | | ${ratios[0].toFixed(2)} / ${median(ratios).toFixed(2)} / ${
          ratios[ratios.length - 1].toFixed(2)
        } |`,
      );
      console.log(
        `| peak RSS | ${Math.round(m(plain[k], (r) => r.rssMb))} MB | ${
          Math.round(m(typed[k], (r) => r.rssMb))
        } MB | |\n`,
      );
    });
  }
  if (want("parse")) {
    const plain = runChild("plain");
    const typed = runChild("schema");
    console.log(
      `parse phase alone (in process, fresh process per mode): ${plain.files} files, ${plain.mb!.toFixed(1)} MB\n`,
    );
    console.log("| mode | first pass | best later pass | reference sites |");
    console.log("|---|---:|---:|---:|");
    console.log(`| project-only | ${fmt(plain.first)} | ${fmt(plain.best)} | ${plain.sites} |`);
    console.log(`| RA3 schema | ${fmt(typed.first)} | ${fmt(typed.best)} | ${typed.sites} |`);
    console.log(
      `| schema / project-only | ${ratio(typed.first, plain.first)} | ${ratio(typed.best, plain.best)} | |\n`,
    );
  }
  if (want("xsd")) {
    const x = runChild("xsd");
    console.log(
      `RA3 XSD set loaded without the cache (fresh process): first ${fmt(x.first)}, best later ${fmt(x.best)}\n`,
    );
  }
  console.log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
}
