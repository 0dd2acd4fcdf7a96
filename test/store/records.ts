/**
 * Real file records for store tests: every file of a mod folder through `parseFile`, exactly as the index
 * core makes them, with its stamp from the scan.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseFile } from "../../src/index/parse-file.ts";
import { scanProjectFiles } from "../../src/project/scan.ts";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { type Snapshot, SNAPSHOT_SCHEMA_VERSION, type SnapshotFile } from "../../src/store/codec.ts";
export { CORPORA } from "../../scripts/corpora.ts";

export const REPO = join(import.meta.dirname, "..", "..");
export const SAMPLE = join(REPO, "examples", "sample-mod");

/** The records of every file under `dir`, parsed with the XSD set in `schemaDir` (or none). */
export function recordsOf(dir: string, schemaDir: string | null): SnapshotFile[] {
  const model = schemaDir ? loadSchema(schemaDir).model : null;
  const schema = model ? new Schema(model) : null;
  return scanProjectFiles(dir).map((f) => ({
    path: f.path,
    stamp: { size: f.size, mtimeMs: f.mtimeMs },
    record: parseFile(f.path, readFileSync(f.path), schema),
  }));
}

/** A snapshot of `files` for `projectDir` with fixed header values. */
export function snapshotOf(projectDir: string, files: readonly SnapshotFile[], over: Partial<Snapshot> = {}): Snapshot {
  return {
    schemaVersion: SNAPSHOT_SCHEMA_VERSION,
    toolVersion: "9.9.9",
    projectDir,
    sdkDir: null,
    schemaKey: "schema-abc",
    generatedAt: "2026-01-02T03:04:05.000Z",
    buildId: 7,
    phase: "art",
    complete: true,
    stale: false,
    stats: { files: files.length, assets: 28, linkMs: 1.5 },
    files,
    ...over,
  };
}
