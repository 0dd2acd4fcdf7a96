// Would a second thread shorten a cold parse? The XML files of a tree parsed in a fresh process on one
// thread, against the same files split by bytes: the largest files, up to a fraction of all bytes, parsed
// by a worker that sends their records back in the snapshot's record encoding (one transferred buffer
// and its string table: no object graph is cloned), which the main thread decodes while it parses the
// rest. Every run is a fresh process with the JIT's top tier off (as a one-shot build of the binary
// runs), the variants interleaved; `--busy N` keeps N other processes spinning, as on a loaded machine.
// Prints the median and range of the time until every record is on the main thread.
// Usage: node_modules/.bin/bun scripts/bench-parse-split.ts [--runs 5] [--fractions 0.4,0.5,0.6]
//        [--tree DIR] [--busy 0]
// (The parse worker was removed in issue 16 item 9; docs/performance.md has what this measured since.)
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { isMainThread, parentPort, Worker } from "node:worker_threads";
import { parseFile } from "../src/index/parse-file.ts";
import type { FileRecord } from "../src/index/records.ts";
import { ByteReader, ByteWriter } from "../src/store/bytes.ts";
import { compileSpec, FILE_RECORD_SPEC, readObject, StringTable, writeObject } from "../src/store/record-codec.ts";
import { CORPORA, filesUnder } from "./corpora.ts";

const FIELDS = compileSpec(FILE_RECORD_SPEC);

/** What the worker sends back: the records' bytes, the strings they index, how many. */
interface Encoded {
  readonly buffer: ArrayBuffer;
  readonly strings: string[];
  readonly count: number;
  readonly parseMs: number;
  readonly encodeMs: number;
}

if (!isMainThread) {
  // The worker: parse the files it is sent, encode their records into one buffer, transfer it.
  parentPort!.on("message", (paths: string[]) => {
    const w = new ByteWriter(1 << 20);
    const table = new StringTable();
    let parseMs = 0;
    let encodeMs = 0;
    for (const path of paths) {
      const t = performance.now();
      const record = parseFile(path, readFileSync(path), null);
      const t2 = performance.now();
      writeObject(w, table, FIELDS, record);
      parseMs += t2 - t;
      encodeMs += performance.now() - t2;
    }
    const bytes = w.finish();
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const out: Encoded = { buffer, strings: table.strings, count: paths.length, parseMs, encodeMs };
    parentPort!.postMessage(out, [buffer]);
  });
} else {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "5" },
      fractions: { type: "string", default: "0.4,0.5,0.6" },
      tree: { type: "string", default: join(CORPORA, "upheaval") },
      busy: { type: "string", default: "0" },
      child: { type: "string" },
    },
  });
  const files = filesUnder(values.tree!, /\.xml$/i);
  if (files.length === 0) {
    console.error(`bench-parse-split: no .xml files under ${values.tree}`);
    process.exit(2);
  }
  if (values.child !== undefined) await child(files, Number(values.child));
  else parent(files, values);
}

/** One measurement in this process: `fraction` 0 parses everything here. Prints a JSON line. */
async function child(files: readonly string[], fraction: number): Promise<void> {
  const t0 = performance.now();
  const sized = files.map((path) => ({ path, size: statSync(path).size })).sort((a, b) => b.size - a.size);
  const total = sized.reduce((n, f) => n + f.size, 0);
  const away = new Set<string>();
  let bytes = 0;
  for (const f of sized) {
    if (bytes + f.size > fraction * total) continue;
    away.add(f.path);
    bytes += f.size;
  }
  let decodeMs = 0;
  let worker: { parseMs: number; encodeMs: number } | null = null;
  const fromWorker = new Promise<FileRecord[]>((resolve, reject) => {
    if (away.size === 0) return resolve([]);
    const w = new Worker(import.meta.filename);
    w.on("message", (e: Encoded) => {
      const t = performance.now();
      const r = new ByteReader(new Uint8Array(e.buffer));
      const out: FileRecord[] = [];
      for (let i = 0; i < e.count; i++) out.push(readObject(r, e.strings, FIELDS) as unknown as FileRecord);
      decodeMs = performance.now() - t;
      worker = { parseMs: e.parseMs, encodeMs: e.encodeMs };
      w.terminate();
      resolve(out);
    });
    w.on("error", (e) => reject(new Error(`worker: ${e.message}`)));
    w.postMessage([...away]);
  });
  const here: FileRecord[] = [];
  for (const path of files) if (!away.has(path)) here.push(parseFile(path, readFileSync(path), null));
  const mainMs = performance.now() - t0;
  const all = [...here, ...(await fromWorker)];
  const totalMs = performance.now() - t0;
  const refs = all.reduce((n, r) => n + r.refs.length, 0);
  console.log(JSON.stringify({ fraction, totalMs, mainMs, decodeMs, worker, records: all.length, refs }));
}

function parent(files: readonly string[], values: { runs?: string; fractions?: string; tree?: string; busy?: string }) {
  const runs = Number(values.runs);
  const variants = [0, ...values.fractions!.split(",").map(Number)];
  const busy = Array.from(
    { length: Number(values.busy) },
    () => spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }),
  );
  const results = new Map<number, { totalMs: number; mainMs: number; decodeMs: number; refs: number }[]>();
  console.log(
    `${files.length} XML files under ${values.tree}; ${runs} runs per variant, interleaved; busy ${busy.length}`,
  );
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  try {
    for (let run = 0; run < runs; run++) {
      for (const fraction of variants) {
        const args = [import.meta.filename, "--tree", values.tree!, "--child", String(fraction)];
        const r = spawnSync(process.execPath, args, {
          encoding: "utf8",
          env: { ...process.env, BUN_JSC_useFTLJIT: "0" },
        });
        if (r.status !== 0) throw new Error(`child failed (${r.status}): ${r.stderr}`);
        const line = JSON.parse(r.stdout.trim().split("\n").pop()!);
        if (!results.has(fraction)) results.set(fraction, []);
        results.get(fraction)!.push(line);
      }
    }
  } finally {
    for (const b of busy) b.kill();
  }
  const refs = new Set([...results.values()].flat().map((r) => r.refs));
  if (refs.size !== 1) throw new Error(`the variants found different reference counts: ${[...refs].join(", ")}`);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  console.log("| variant | all records on the main thread, median (min–max) | main thread's own parse | decode |");
  console.log("|---|---|---|---|");
  for (const [fraction, rs] of results) {
    const total = rs.map((r) => r.totalMs);
    const name = fraction === 0 ? "one thread" : `worker takes ${Math.round(fraction * 100)} % of the bytes`;
    console.log(
      `| ${name} | ${ms(median(total))} (${ms(Math.min(...total))}–${ms(Math.max(...total))}) | ${
        ms(median(rs.map((r) => r.mainMs)))
      } | ${fraction === 0 ? "" : ms(median(rs.map((r) => r.decodeMs)))} |`,
    );
  }
  console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
}
