/**
 * Temporary folders for one test file, removed after its tests. Call {@link tempDirs} at the file's top
 * level (so its `afterAll` belongs to that file), then `make` as often as needed. Shared helpers that
 * outlive one file clean up their own folders instead (see `mcp/harness.ts`, `query/sample.ts`).
 */
import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A maker of temporary folders whose folders are all removed after the current file's tests. */
export function tempDirs(): { make(prefix: string): string } {
  const made: string[] = [];
  afterAll(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return {
    make(prefix) {
      const d = mkdtempSync(join(tmpdir(), prefix));
      made.push(d);
      return d;
    },
  };
}
