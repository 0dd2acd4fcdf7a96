/** Test helper: builds small file trees in a fresh temporary folder. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A new empty temporary folder (real path, so symlinked /tmp setups compare equal). */
export function tempDir(prefix = "ra3-project-"): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** Writes `files` (relative path → content; a path ending in `/` makes an empty folder) below `root`. */
export function writeTree(root: string, files: Readonly<Record<string, string>>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    if (rel.endsWith("/")) {
      mkdirSync(p, { recursive: true });
      continue;
    }
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
}

/** Removes a temporary folder. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
