/** A writable copy of the sample mod (its folder name has a space) and a home folder beside it. */
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");

/** Copies the sample mod to `<new temp folder>/Sample Mod`; the home is `<that folder>/home` (not created). */
export function copySample(prefix = "ra3-sample-"): { dir: string; home: string } {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const dir = join(base, "Sample Mod");
  cpSync(SAMPLE, dir, { recursive: true });
  return { dir, home: join(base, "home") };
}
