// The one place the corpora folder is resolved: RA3_CORPORA when set (relative to the working
// directory), else ../shared/corpora beside the repository, as before the variable existed.
import { describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { corporaDir, REPO_ROOT } from "../../scripts/corpora.ts";

describe("corporaDir", () => {
  test("unset or blank: ../shared/corpora beside the repository", () => {
    expect(corporaDir({})).toBe(join(REPO_ROOT, "..", "shared", "corpora"));
    expect(corporaDir({ RA3_CORPORA: "  " })).toBe(join(REPO_ROOT, "..", "shared", "corpora"));
  });

  test("RA3_CORPORA: absolute as given, relative from the working directory", () => {
    expect(corporaDir({ RA3_CORPORA: "/data/ra3 corpora" })).toBe("/data/ra3 corpora");
    expect(corporaDir({ RA3_CORPORA: "corpora" })).toBe(resolve(process.cwd(), "corpora"));
  });
});
