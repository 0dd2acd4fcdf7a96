// Snapshot codec and export: size and encode/decode time on real indexes, against the alternatives the
// design considered (msgpackr records + bundleStrings on the plain records; JSON), and prints a table.
// Run the way the compiled binary runs msgpackr (no native add-on):
//   MSGPACKR_NATIVE_ACCELERATION_DISABLED=true bun scripts/bench-store.ts [rounds=5]
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isNativeAccelerationEnabled, Packr } from "msgpackr";
import { resolveConfig } from "../src/workspace/config.ts";
import { Workspace } from "../src/workspace/workspace.ts";
import { decodeSnapshot, encodeSnapshot, type Snapshot, SNAPSHOT_SCHEMA_VERSION } from "../src/store/codec.ts";
import { exportSnapshot } from "../src/store/export.ts";
import { CORPORA } from "./corpora.ts";

const rounds = Math.max(1, Number(process.argv[2] ?? 5));
const repo = join(import.meta.dirname, "..");
const corpora = CORPORA;
const cases: { name: string; project: string; schema: string | null; sdk: string }[] = [
  { name: "sample-mod", project: join(repo, "examples", "sample-mod"), schema: null, sdk: "" },
  { name: "upheaval + ra3-xsd", project: join(corpora, "upheaval"), schema: join(corpora, "ra3-xsd"), sdk: "" },
  {
    name: "tw Commander + SDK",
    project: join(corpora, "tw-sdk", "Mods", "Commander"),
    schema: null,
    sdk: join(corpora, "tw-sdk"),
  },
];

/** The first run (cold JIT: what one warm start pays) and the best of `rounds` more. */
function time<T>(fn: () => T): { first: number; best: number; value: T } {
  let t0 = performance.now();
  let value = fn();
  const first = performance.now() - t0;
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    t0 = performance.now();
    value = fn();
    best = Math.min(best, performance.now() - t0);
  }
  return { first, best, value };
}

const home = mkdtempSync(join(tmpdir(), "ra3-bench-store-"));
const rows: string[][] = [];
const mb = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} MB` : `${(n / 1e3).toFixed(1)} KB`);
const ms = (n: number) => n.toFixed(1);
try {
  for (const c of cases) {
    if (!existsSync(c.project)) {
      console.error(`skipped ${c.name}: ${c.project} not found`);
      continue;
    }
    const cfg = resolveConfig({ project: c.project, sdk: c.sdk, schema: c.schema, home });
    if ("envError" in cfg) throw new Error(cfg.envError);
    const ws = new Workspace(cfg);
    await ws.build();
    const files = [...ws.core.values()].map((f) => ({ path: f.path, stamp: f.stamp, record: f.record }));
    const refs = files.reduce((n, f) => n + f.record.refs.length, 0);
    const snapshot: Snapshot = {
      schemaVersion: SNAPSHOT_SCHEMA_VERSION,
      toolVersion: "bench",
      projectDir: cfg.projectDir,
      sdkDir: cfg.sdk?.dir ?? null,
      schemaKey: "bench",
      generatedAt: new Date().toISOString(),
      buildId: 1,
      phase: "art",
      complete: true,
      stale: false,
      stats: {},
      files,
    };
    const label = `${c.name} (${files.length} files, ${refs} refs)`;
    const expect = { projectDir: cfg.projectDir, toolVersion: "bench" };

    const enc = time(() => encodeSnapshot(snapshot));
    const dec = time(() => decodeSnapshot(enc.value, expect));
    if (!dec.value.ok) throw new Error(dec.value.message);
    rows.push([
      label,
      "ra3 snapshot (string table + varints)",
      mb(enc.value.length),
      ms(enc.first),
      ms(enc.best),
      ms(dec.first),
      ms(dec.best),
    ]);

    const packr = new Packr({ useRecords: true, bundleStrings: true });
    const penc = time(() => packr.pack(snapshot));
    const pdec = time(() => packr.unpack(penc.value));
    rows.push([
      "",
      "msgpackr records + bundleStrings",
      mb(penc.value.length),
      ms(penc.first),
      ms(penc.best),
      ms(pdec.first),
      ms(pdec.best),
    ]);

    const jenc = time(() => new TextEncoder().encode(JSON.stringify(snapshot)));
    const jdec = time(() => JSON.parse(new TextDecoder().decode(jenc.value)));
    rows.push(["", "JSON", mb(jenc.value.length), ms(jenc.first), ms(jenc.best), ms(jdec.first), ms(jdec.best)]);

    const linked = ws.linked!;
    const meta = {
      toolVersion: "bench",
      generatedAt: snapshot.generatedAt,
      buildId: 1,
      phase: "art" as const,
      complete: true,
      stale: false,
    };
    const ej = time(() => exportSnapshot(linked, ws.core, meta, "json"));
    const em = time(() => exportSnapshot(linked, ws.core, meta, "msgpack"));
    rows.push(["", "public export, JSON", mb(ej.value.length), ms(ej.first), ms(ej.best), "", ""]);
    rows.push(["", "public export, msgpack", mb(em.value.length), ms(em.first), ms(em.best), "", ""]);
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}

const header = ["index", "format", "size", "encode 1st ms", "encode best ms", "decode 1st ms", "decode best ms"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r: string[]) =>
  `| ${r.map((v, i) => (i < 2 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join(" | ")} |`;
console.log(
  `msgpackr native add-on: ${
    isNativeAccelerationEnabled ? "loaded" : "not loaded (as in the compiled binary)"
  }; best of ${rounds}`,
);
console.log(line(header));
console.log(`|${widths.map((w, i) => (i < 2 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|")}|`);
for (const r of rows) console.log(line(r));
