// Throughput of the XML layer on the Upheaval corpus, ours vs saxes, best of N runs, in MB/s
// (10^6 bytes of file per second; files are read once up front, so no I/O is timed).
// Usage: node_modules/.bin/bun scripts/bench-xml.ts [runs=5] [corpora dir=$RA3_CORPORA or ../shared/corpora]
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SaxesParser } from "saxes";
import { decodeXml } from "../src/xml/decode.ts";
import { scanShallow } from "../src/xml/shallow.ts";
import { parseXml } from "../src/xml/tokenizer.ts";
import { CORPORA, filesUnder } from "./corpora.ts";

const runs = Number(process.argv[2] ?? 5);
const corpora = process.argv[3] ?? CORPORA;
const upheaval = join(corpora, "upheaval");
if (!existsSync(upheaval)) {
  console.error(`no corpus at ${upheaval}`);
  process.exit(1);
}

interface Corpus {
  readonly name: string;
  readonly bytes: Uint8Array[];
  readonly texts: string[];
  readonly size: number;
}

function load(name: string, files: string[]): Corpus {
  const bytes = files.map((f) => new Uint8Array(readFileSync(f)));
  return { name, bytes, texts: bytes.map((b) => decodeXml(b).text), size: bytes.reduce((n, b) => n + b.length, 0) };
}

const sets = [
  load("Data/ .xml", filesUnder(join(upheaval, "Data"), /\.xml$/i)),
  load("all .xml", filesUnder(upheaval, /\.xml$/i)),
  load(".w3x", filesUnder(upheaval, /\.w3x$/i)),
];

/** Best wall time of `n` runs of `fn`, in ms, and its last result (a checksum against dead-code elimination). */
function best(n: number, fn: () => number): { ms: number; check: number } {
  let ms = Infinity;
  let check = 0;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    check = fn();
    ms = Math.min(ms, performance.now() - t);
  }
  return { ms, check };
}

/** Every element and attribute visited, plus the id and position of each root child (the indexer's needs). */
function oursFull(c: Corpus): number {
  let n = 0;
  for (const text of c.texts) {
    parseXml(text, {
      startElement(t) {
        n += t.attributes.length;
        if (t.depth === 1) { for (const a of t.attributes) if (a.qname === "id") n += a.valueStart; }
      },
    });
  }
  return n;
}

/** As {@link oursFull}, also receiving end tags and text runs. */
function oursAllEvents(c: Corpus): number {
  let n = 0;
  for (const text of c.texts) {
    parseXml(text, {
      startElement(t) {
        n += t.attributes.length;
      },
      endElement() {
        n++;
      },
      text(v) {
        n += v.length;
      },
    });
  }
  return n;
}

function saxesFull(c: Corpus): number {
  let n = 0;
  for (const text of c.texts) {
    const p = new SaxesParser({ xmlns: true, position: true });
    p.on("opentag", (node) => {
      for (const _ in node.attributes) n++;
    });
    p.write(text).close();
  }
  return n;
}

function decodeAll(c: Corpus): number {
  let n = 0;
  for (const b of c.bytes) n += decodeXml(b).text.length;
  return n;
}

function shallowAll(c: Corpus): number {
  let n = 0;
  for (const b of c.bytes) n += scanShallow(b).assets.length;
  return n;
}

const rows: [string, (c: Corpus) => number, number][] = [
  ["decodeXml (bytes → text)", decodeAll, runs],
  ["parseXml, start tags", oursFull, runs],
  ["parseXml, all events", oursAllEvents, runs],
  ["saxes (xmlns, position)", saxesFull, Math.max(1, Math.min(runs, 3))],
  ["scanShallow (bytes)", shallowAll, runs],
];

const header = ["", ...sets.map((s) => `${s.name} (${(s.size / 1e6).toFixed(1)} MB, ${s.bytes.length} files)`)];
const table: string[][] = [header];
for (const [label, fn, n] of rows) {
  const cells = [label];
  // Warm up on every set first, so that the small Data/ set is timed with optimised code too.
  for (const c of sets) fn(c);
  for (let i = 0; i < 10; i++) fn(sets[0]);
  for (const c of sets) {
    const { ms } = best(c.size < 10e6 ? n * 4 : n, () => fn(c));
    cells.push(`${((c.size / 1e6) / (ms / 1000)).toFixed(0)} MB/s (${ms.toFixed(1)} ms)`);
  }
  table.push(cells);
}
const widths = header.map((_, i) => Math.max(...table.map((r) => r[i].length)));
for (const [i, r] of table.entries()) {
  console.log(
    "| " + r.map((cell, k) => (k === 0 ? cell.padEnd(widths[k]) : cell.padStart(widths[k]))).join(" | ") + " |",
  );
  if (i === 0) {
    console.log("|" + widths.map((w, k) => (k === 0 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|") + "|");
  }
}
console.log(
  `best of ${runs} (saxes: ${Math.max(1, Math.min(runs, 3))}; sets under 10 MB: 4x as many), after a warm-up; ${
    process.versions.bun ? "bun " + process.versions.bun : "node " + process.versions.node
  }`,
);
