/**
 * The embedded sample mod indexed once through the real driver (its own XSD set, project-only), shared
 * by the query tests.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { LinkedIndex } from "../../src/index/linked.ts";
import { isQueryError, type QueryResult } from "../../src/query/envelope.ts";
import { resolveConfig } from "../../src/workspace/config.ts";
import { Workspace } from "../../src/workspace/workspace.ts";

export const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");

let built: Promise<LinkedIndex> | null = null;

/** The sample mod's linked index (built on first use, then shared). */
export function sampleIndex(): Promise<LinkedIndex> {
  built ??= (async () => {
    const home = mkdtempSync(join(tmpdir(), "ra3-query-home-"));
    try {
      const cfg = resolveConfig({ project: SAMPLE, sdk: "", schema: null, home });
      if ("envError" in cfg) throw new Error(cfg.envError);
      const ws = new Workspace(cfg);
      await ws.build();
      ws.close();
      return ws.linked!;
    } finally {
      // The linked index lives in memory; the state folder (schema cache) is not needed after the build.
      rmSync(home, { recursive: true, force: true });
    }
  })();
  return built;
}

/**
 * The refusal of a path outside the folders ra3 reads, for a project (without an SDK) whose parent and
 * grandparent are not file-system roots: `what` is `a path`, `paths` or `a file`.
 */
export function outsideMessage(written: string, project: string, what: string): string {
  const roots = [project, dirname(project), dirname(dirname(project))].join(", ");
  return `${written} is outside the folders ra3 reads (${roots}); pass ${what} inside the project`;
}

/** The value of a successful query (a failed one throws with its message, failing the test). */
export function ok<R>(r: QueryResult<R>): R {
  if (isQueryError(r)) throw new Error(`unexpected query error: ${r.error.code}: ${r.error.message}`);
  return r;
}
