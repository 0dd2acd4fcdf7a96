// Where the real test corpora are (Upheaval, the TW SDK, the RA3 XSD set; see CONTRIBUTING.md): the
// folder named by RA3_CORPORA, else ../shared/corpora beside the repository. The one place tests,
// benchmarks and smoke scripts look them up; each skips what it needs when the folder is absent.
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";

/** The repository's root folder. */
export const REPO_ROOT = join(import.meta.dirname, "..");

/**
 * The corpora folder for an environment: `RA3_CORPORA` (relative to the working directory) when set and
 * not blank, else `<repo>/../shared/corpora`.
 * @example corporaDir({ RA3_CORPORA: "/data/corpora" }) // "/data/corpora"
 */
export function corporaDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const v = env.RA3_CORPORA;
  return v !== undefined && v.trim() !== "" ? resolve(v) : join(REPO_ROOT, "..", "shared", "corpora");
}

/** The corpora folder of this run. */
export const CORPORA: string = corporaDir();

/** True when `name` (e.g. "upheaval") exists in the corpora folder. */
export function hasCorpus(name: string): boolean {
  return existsSync(join(CORPORA, name));
}

/**
 * The files below `dir` (recursively) whose name matches `pattern`, in directory-listing order: what the
 * benchmarks read from a corpus.
 * @example filesUnder(join(CORPORA, "upheaval"), /\.w3x$/i).length // 513
 */
export function filesUnder(dir: string, pattern: RegExp, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) filesUnder(p, pattern, out);
    else if (pattern.test(e.name)) out.push(p);
  }
  return out;
}
