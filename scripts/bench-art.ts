// The shallow art scan (`.w3x`) of a tree, in process, with each file's line ends as written and turned
// into CRLF (what a Windows checkout or exporter often writes), each also with a non-ASCII comment on its
// first line (a UTF-8 file): files are read once up front, so no I/O is timed. Prints the best and median of N runs per variant and the sum of the last asset's line per file
// (equal in every variant, or the scan is wrong).
// Usage: node_modules/.bin/bun scripts/bench-art.ts [--runs 3] [--tree /tmp/ra3-perf-corona]
// Run it with BUN_JSC_useFTLJIT=0 to match a one-shot build of the binary (docs/performance.md).
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { scanShallowAscii } from "../src/xml/shallow.ts";
import { filesUnder } from "./corpora.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    tree: { type: "string", default: join(tmpdir(), "ra3-perf-corona") },
  },
});
const runs = Number(values.runs);

const files = filesUnder(values.tree!, /\.w3x$/i);
if (files.length === 0) {
  console.error(`bench-art: no .w3x files under ${values.tree}`);
  process.exit(2);
}
const asWritten = files.map((f) => readFileSync(f));
const crlf = asWritten.map((b) => Buffer.from(b.toString("latin1").replace(/\r?\n/g, "\r\n"), "latin1"));
// A comment with non-ASCII text on the first line makes a file UTF-8 (another counting path); its line
// count is unchanged.
const nonAscii = (b: Buffer) => {
  const text = b.toString("utf8");
  let eol = text.indexOf("\n");
  if (eol > 0 && text[eol - 1] === "\r") eol--;
  return Buffer.from(eol < 0 ? text : `${text.slice(0, eol)}<!-- modèle 模型 -->${text.slice(eol)}`, "utf8");
};
const utf8 = asWritten.map(nonAscii);
const utf8Crlf = crlf.map(nonAscii);
const mb = asWritten.reduce((n, b) => n + b.length, 0) / 1e6;

console.log(`${files.length} art files, ${mb.toFixed(0)} MB as written, ${runs} runs per variant`);
console.log("| line ends | best | median | sum of last asset lines |");
console.log("|---|---|---|---|");
const variants = [["as written", asWritten], ["CRLF", crlf], ["UTF-8 text", utf8], [
  "UTF-8 text, CRLF",
  utf8Crlf,
]] as const;
for (const [name, set] of variants) {
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
