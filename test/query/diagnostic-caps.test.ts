// The listing caps: per file at most 200 of one code and 1,000 in all, errors kept first, and every
// diagnostic left out counted per file, code and severity.
import { describe, expect, test } from "bun:test";
import { capDiagnostics, DIAGNOSTIC_CAPS, unlistedSentence } from "../../src/query/diagnostic-caps.ts";
import type { Severity } from "../../src/index/records.ts";

interface D {
  readonly file: string | null;
  readonly line: number;
  readonly column: number;
  readonly severity: Severity;
  readonly code: string;
}

const many = (file: string | null, code: string, severity: Severity, n: number, from = 1): D[] =>
  Array.from({ length: n }, (_, i) => ({ file, line: from + i, column: 1, severity, code }));

describe("capDiagnostics", () => {
  test("the caps decided: 200 of one code per file, 1,000 per file", () => {
    expect(DIAGNOSTIC_CAPS).toEqual({ perCode: 200, perFile: 1000 });
  });

  test("under the caps nothing changes (the same objects, in order)", () => {
    const all = [...many("a.xml", "unknown-element", "warning", 200), ...many("b.xml", "xml-syntax", "error", 1)];
    const r = capDiagnostics(all);
    expect(r.unlisted).toEqual([]);
    expect(r.listed).toEqual(all);
    expect(r.listed[0]).toBe(all[0]);
  });

  test("5,000 of one code in one file: the first 200 listed, 4,800 counted from the 201st's position", () => {
    const r = capDiagnostics(many("Data/Mod.xml", "unknown-element", "warning", 5000, 4));
    expect(r.listed.length).toBe(200);
    expect(r.listed.at(-1)!.line).toBe(203);
    expect(r.unlisted).toEqual([
      { file: "Data/Mod.xml", code: "unknown-element", severity: "warning", count: 4800, line: 204, column: 1 },
    ]);
  });

  test("per code and per file: codes are capped separately, files too", () => {
    const all = [
      ...many("a.xml", "unknown-element", "warning", 250),
      ...many("a.xml", "unknown-attribute", "warning", 201, 1000),
      ...many("b.xml", "unknown-element", "warning", 199),
    ];
    const r = capDiagnostics(all);
    expect(r.listed.length).toBe(200 + 200 + 199);
    expect(r.unlisted.map((u) => [u.file, u.code, u.count, u.line])).toEqual([
      ["a.xml", "unknown-element", 50, 201],
      ["a.xml", "unknown-attribute", 1, 1200],
    ]);
  });

  test("more than 1,000 left in one file: errors first, then warnings, then notes, each in order", () => {
    // 6 codes × 200 warnings (1,200 after the per-code cap) and 150 errors at the end of the file.
    const warnings = Array.from({ length: 6 }, (_, c) => many("x.xml", `w${c}`, "warning", 200, 1 + c * 200)).flat();
    const notes = many("x.xml", "n", "information", 10, 1300);
    const errors = many("x.xml", "missing-id", "error", 150, 2000);
    const r = capDiagnostics([...warnings, ...notes, ...errors]);
    expect(r.listed.length).toBe(1000);
    expect(r.listed.filter((d) => d.severity === "error").length).toBe(150);
    expect(r.listed.filter((d) => d.severity === "information").length).toBe(0);
    // 850 warnings fit: the first 850 by position (codes w0..w3 whole, 50 of w4), listed in file order.
    expect(r.listed.filter((d) => d.severity === "warning").map((d) => d.line)).toEqual(
      Array.from({ length: 850 }, (_, i) => i + 1),
    );
    expect(r.unlisted.map((u) => [u.code, u.severity, u.count, u.line])).toEqual([
      ["w4", "warning", 150, 851],
      ["w5", "warning", 200, 1001],
      ["n", "information", 10, 1300],
    ]);
    const total = r.listed.length + r.unlisted.reduce((a, u) => a + u.count, 0);
    expect(total).toBe(1200 + 10 + 150);
  });

  test("a code with two severities in one file is capped per severity: its errors are not hidden", () => {
    const all = [...many("a.xml", "c", "warning", 201), ...many("a.xml", "c", "error", 3, 500)];
    const r = capDiagnostics(all);
    expect(r.listed.filter((d) => d.severity === "error").length).toBe(3);
    expect(r.unlisted.map((u) => [u.severity, u.count])).toEqual([["warning", 1]]);
  });

  test("index-wide notes (no file) are capped as their own group", () => {
    const r = capDiagnostics(many(null, "external-references", "information", 201, 0));
    expect(r.unlisted).toEqual([
      { file: null, code: "external-references", severity: "information", count: 1, line: 200, column: 1 },
    ]);
  });

  test("the sentence says how many, of which code and severity, and the caps", () => {
    const [u] = capDiagnostics(many("Data/Mod.xml", "unknown-element", "warning", 5000, 4)).unlisted;
    expect(unlistedSentence(u)).toBe(
      "4800 more unknown-element warnings in this file are not listed (at most 200 of one code and 1000 in one file are)",
    );
    expect(unlistedSentence({ ...u, count: 1, severity: "information", file: null })).toBe(
      "1 more unknown-element note for the project is not listed (at most 200 of one code and 1000 in one file are)",
    );
  });
});
