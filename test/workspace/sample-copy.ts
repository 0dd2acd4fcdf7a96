/** A writable copy of the sample mod (its folder name has a space) and a home folder beside it. */
import { cpSync } from "node:fs";
import { join } from "node:path";

export const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");

/**
 * Copies the sample mod to `<new temp folder>/Sample Mod`; the home is `<that folder>/home` (not created).
 * The folder comes from the calling file's `tempDirs()` maker, so it is removed after that file.
 */
export function copySample(
  tmp: { make(prefix: string): string },
  prefix = "ra3-sample-",
): { dir: string; home: string } {
  const base = tmp.make(prefix);
  const dir = join(base, "Sample Mod");
  cpSync(SAMPLE, dir, { recursive: true });
  return { dir, home: join(base, "home") };
}
