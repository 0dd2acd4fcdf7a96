// Times parseManifest (and the cross-manifest index) on the TW SDK manifests and prints a table.
// Usage: bun scripts/bench-manifest.ts [rounds=20]
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { indexManifestAssets, learnTypeNames, type Manifest, parseManifest } from "../src/formats/manifest.ts";
import { CORPORA } from "./corpora.ts";

const dir = join(CORPORA, "tw-sdk", "BuiltMods", "CnC3Xml");
if (!existsSync(dir)) {
  console.error(`corpus not found: ${dir}`);
  process.exit(3);
}
const rounds = Math.max(1, Number(process.argv[2] ?? 20));
const files = ["global", "static", "worldbuilder"].map((name) => ({
  name,
  bytes: new Uint8Array(readFileSync(join(dir, `${name}.manifest`))),
}));

function time(fn: () => void): { first: number; median: number; min: number } {
  const t: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    fn();
    t.push(performance.now() - t0);
  }
  const first = t[0];
  t.sort((a, b) => a - b);
  return { first, median: t[Math.floor(t.length / 2)], min: t[0] };
}

const rows: string[][] = [];
const manifests: Manifest[] = [];
for (const { name, bytes } of files) {
  let m: Manifest | undefined;
  const r = time(() => {
    const p = parseManifest(bytes);
    if (!p.ok) throw new Error(`${name}: ${p.error.message}`);
    m = p.manifest;
  });
  manifests.push(m!);
  const mbps = bytes.length / 1e6 / (r.median / 1e3);
  rows.push([
    `parse ${name}.manifest`,
    String(bytes.length),
    String(m!.assets.length),
    r.first.toFixed(2),
    r.median.toFixed(2),
    r.min.toFixed(2),
    mbps.toFixed(0),
  ]);
}
const idx = time(() => void indexManifestAssets(manifests));
rows.push([
  "indexManifestAssets (3)",
  "",
  String(manifests.reduce((n, m) => n + m.assets.length, 0)),
  idx.first.toFixed(2),
  idx.median.toFixed(2),
  idx.min.toFixed(2),
  "",
]);
const learn = time(() => void learnTypeNames(manifests));
rows.push(["learnTypeNames (3)", "", "", learn.first.toFixed(2), learn.median.toFixed(2), learn.min.toFixed(2), ""]);

const header = ["step", "bytes", "assets", "first ms", "median ms", "min ms", "MB/s (median)"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
console.log(`${rounds} rounds, ${process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.version}`}`);
console.log(line(header));
for (const r of rows) console.log(line(r));
