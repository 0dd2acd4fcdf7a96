/**
 * `checkFiles` (check_files, `ra3 check`): the index's diagnostics for the project or for given files,
 * with counts; paths outside the project or not indexed are clear errors.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { checkFiles } from "../../src/query/check.ts";
import { fileQuery } from "../../src/query/files.ts";
import { ok, outsideMessage, SAMPLE, sampleIndex } from "./sample.ts";

describe("the sample mod", () => {
  test("the whole project: index-wide notes, then per file", async () => {
    const linked = await sampleIndex();
    expect(ok(checkFiles(linked, null))).toEqual({
      files: null,
      total: 4,
      errors: 0,
      warnings: 2,
      information: 2,
      byCode: [
        { code: "external-references", count: 1 },
        { code: "include-cycle", count: 1 },
        { code: "include-not-found", count: 1 },
        { code: "sdk-not-configured", count: 1 },
      ],
      listed: 4,
      unlisted: [],
      unlistedGroupsNotShown: 0,
      diagnostics: [
        // Side="Allies" and Side="PlayerTemplate:Allies" name the vanilla PlayerTemplate.
        {
          file: null,
          line: 0,
          column: 0,
          severity: "information",
          code: "external-references",
          message: "2 references point at assets outside the project; give --sdk to check them",
        },
        {
          file: null,
          line: 0,
          column: 0,
          severity: "information",
          code: "sdk-not-configured",
          message:
            "3 includes of 3 DATA:/ART:/AUDIO: sources point into the SDK (e.g. DATA:static.xml, DATA:global.xml, DATA:audio.xml); give --sdk to resolve them",
        },
        {
          file: "Data/Includes/Loop/LoopB.xml",
          line: 4,
          column: 31,
          severity: "warning",
          code: "include-cycle",
          message:
            'include cycle: Data/Includes/Loop/LoopA.xml → Data/Includes/Loop/LoopB.xml → Data/Includes/Loop/LoopA.xml (the include of "LoopA.xml" is skipped)',
        },
        {
          file: "Data/Standalone.xml",
          line: 6,
          column: 31,
          severity: "warning",
          code: "include-not-found",
          message: 'include "Includes/NotWrittenYet.xml" was not found',
        },
      ],
      nextCursor: null,
    });
  });

  test("one file, by a relative path in any case, or by its absolute path", async () => {
    const linked = await sampleIndex();
    const rel = ok(checkFiles(linked, ["data/standalone.xml"]));
    const abs = ok(checkFiles(linked, [join(SAMPLE, "Data", "Standalone.xml")]));
    for (const r of [rel, abs]) {
      expect([r.files, r.total, r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)]).toEqual([
        ["Data/Standalone.xml"],
        1,
        ["Data/Standalone.xml:6:31 include-not-found"],
      ]);
    }
  });

  test("a clean file: nothing", async () => {
    const linked = await sampleIndex();
    const r = ok(checkFiles(linked, ["Data/Includes/Weapons.xml"]));
    expect([r.files, r.total, r.errors, r.warnings, r.information, r.byCode, r.diagnostics]).toEqual([
      ["Data/Includes/Weapons.xml"],
      0,
      0,
      0,
      0,
      [],
      [],
    ]);
  });

  test("paging", async () => {
    const linked = await sampleIndex();
    const p1 = ok(checkFiles(linked, null, { limit: 3 }));
    const p2 = ok(checkFiles(linked, null, { limit: 3, cursor: p1.nextCursor }));
    expect([p1.diagnostics.length, p2.diagnostics.map((d) => d.code), p2.nextCursor, p2.total]).toEqual([
      3,
      ["include-not-found"],
      null,
      4,
    ]);
  });

  test("a path outside the folders ra3 reads is an error naming them", async () => {
    const linked = await sampleIndex();
    expect(checkFiles(linked, ["/etc/hosts"])).toEqual({
      error: {
        code: "outside_project",
        message: outsideMessage("/etc/hosts", SAMPLE, "paths"),
      },
    });
    // Inside the mod's grandparent (a folder ra3 reads) but not indexed: the index says so, nothing more.
    expect(checkFiles(linked, ["../../README.md"])).toEqual({
      error: { code: "not_found", message: "../../README.md is not an indexed file of this project" },
    });
    expect(checkFiles(linked, ["../../../README.md"])).toEqual({
      error: { code: "outside_project", message: outsideMessage("../../../README.md", SAMPLE, "paths") },
    });
  });

  test("a path inside the project that is not an indexed file", async () => {
    const linked = await sampleIndex();
    expect(checkFiles(linked, ["Data/NoSuchFile.xml"])).toEqual({
      error: { code: "not_found", message: "Data/NoSuchFile.xml is not an indexed file of this project" },
    });
  });

  test("Windows spellings of a path (`.\\`, `..` segments, any case) name the same file on every OS", async () => {
    const linked = await sampleIndex();
    for (
      const p of [
        "Data\\Standalone.xml",
        ".\\Data\\Standalone.xml",
        "Data\\X\\..\\Standalone.xml",
        ".\\data\\STANDALONE.xml",
      ]
    ) {
      expect([p, ok(checkFiles(linked, [p])).files]).toEqual([p, ["Data/Standalone.xml"]]);
      const f = fileQuery(linked, p);
      expect([p, "error" in f ? f.error.message : f.file]).toEqual([p, "Data/Standalone.xml"]);
    }
  });
});
