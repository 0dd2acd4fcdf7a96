/**
 * A parse worker: reads and parses a share of the files of a build on another core, and sends the
 * records back encoded with the snapshot codec (one transferable buffer, decoded in a few ms).
 * Messages: `{init: SchemaModel | null}`, then `{id, files: {path, size, mtimeMs}[]}` →
 * `{id, bytes, unreadable: {path, error}[]}` or `{id, error}`.
 */
import { readFileSync } from "node:fs";
import { parseFile } from "../index/parse-file.ts";
import type { SchemaModel } from "../schema/model.ts";
import { Schema } from "../schema/schema.ts";
import { encodeSnapshot, SNAPSHOT_SCHEMA_VERSION, type SnapshotFile } from "../store/codec.ts";
import { TOOL_VERSION } from "../version.ts";
import { BATCH_PROJECT } from "./parse-pool.ts";

interface Scope {
  onmessage: ((e: { data: unknown }) => void) | null;
  postMessage(data: unknown, transfer?: ArrayBuffer[]): void;
}
const scope = globalThis as unknown as Scope;
let schema: Schema | null = null;

scope.onmessage = (e) => {
  const msg = e.data as {
    init?: SchemaModel | null;
    id?: number;
    files?: { path: string; size: number; mtimeMs: number }[];
  };
  if ("init" in msg) {
    schema = msg.init ? new Schema(msg.init) : null;
    return;
  }
  const id = msg.id ?? 0;
  try {
    const files: SnapshotFile[] = [];
    const unreadable: { path: string; error: string }[] = [];
    for (const f of msg.files ?? []) {
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(f.path);
      } catch (err) {
        unreadable.push({ path: f.path, error: (err as NodeJS.ErrnoException).code ?? String(err) });
        continue;
      }
      files.push({
        path: f.path,
        stamp: { size: f.size, mtimeMs: f.mtimeMs },
        record: parseFile(f.path, bytes, schema),
      });
    }
    const encoded = encodeSnapshot({
      schemaVersion: SNAPSHOT_SCHEMA_VERSION,
      toolVersion: TOOL_VERSION,
      projectDir: BATCH_PROJECT,
      sdkDir: null,
      schemaKey: "",
      generatedAt: "",
      buildId: 0,
      phase: "xml",
      complete: false,
      stale: false,
      stats: {},
      files,
    });
    // A standalone buffer so it can be transferred rather than copied.
    const bytes = encoded.byteOffset === 0 && encoded.byteLength === encoded.buffer.byteLength
      ? encoded
      : encoded.slice();
    scope.postMessage({ id, bytes, unreadable }, [bytes.buffer as ArrayBuffer]);
  } catch (err) {
    scope.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
