// The shallow art scan (`.w3x`) of a tree, in process, with each file's line ends as written and turned
// into CRLF (what a Windows checkout or exporter often writes): files are read once up front, so no I/O
// is timed. Prints the best and median of N runs per variant and the sum of the last asset's line per file
// (equal in both variants, or the scan is wrong).
// Usage: node_modules/.bin/bun scripts/bench-art.ts [--runs 3] [--tree /tmp/ra3-perf-corona]
// Run it with BUN_JSC_useFTLJIT=0 to match a one-shot build of the binary (docs/performance.md).
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { scanShallowAscii } from "../src/xml/shallow.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    tree: { type: "string", default: join(tmpdir(), "ra3-perf-corona") },
  },
});
const runs = Number(values.runs);

function artFiles(dir: string, out: string[]): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) artFiles(p, out);
    else if (/\.w3x$/i.test(e.name)) out.push(p);
  }
  return out;
}

const files = artFiles(values.tree!, []);
if (files.length === 0) {
  console.error(`bench-art: no .w3x files under ${values.tree}`);
  process.exit(2);
}
const asWritten = files.map((f) => readFileSync(f));
const crlf = asWritten.map((b) => Buffer.from(b.toString("latin1").replace(/\r?\n/g, "\r\n"), "latin1"));
const mb = asWritten.reduce((n, b) => n + b.length, 0) / 1e6;

console.log(`${files.length} art files, ${mb.toFixed(0)} MB as written, ${runs} runs per variant`);
console.log("| line ends | best | median | sum of last asset lines |");
console.log("|---|---|---|---|");
for (const [name, set] of [["as written", asWritten], ["CRLF", crlf]] as const) {
  const times: number[] = [];
  let lines = 0;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    lines = 0;
    for (const b of set) {
      const { assets } = scanShallowAscii(b).scan;
      if (assets.length) lines += assets[assets.length - 1].line;
    }
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`| ${name} | ${times[0].toFixed(0)} ms | ${median.toFixed(0)} ms | ${lines} |`);
}
