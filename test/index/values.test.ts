/**
 * The in-place value tests extraction runs on every value (`src/index/values.ts`) against the regular
 * expressions and string methods they replaced, on generated values built from the characters that
 * matter (id characters, colons, every kind of whitespace, non-ASCII letters).
 */
import { describe, expect, test } from "bun:test";
import {
  hasAmpOrLt,
  hasChar,
  isBlank,
  isSpace,
  scanIdToken,
  skipSpace,
  skipToken,
  trimmedEnd,
} from "../../src/index/values.ts";
import { prng } from "../prng.ts";

/** The heuristic id test as it was written with regular expressions (the definition). */
function looksLikeAssetIdByRegex(value: string): boolean {
  if (value.length < 2 || !/^(?:[A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*$/.test(value)) return false;
  if (new Set(["true", "false", "yes", "no", "none", "null"]).has(value.toLowerCase())) return false;
  const last = value.slice(value.lastIndexOf(":") + 1);
  return !/^[A-Z0-9_]+$/.test(last);
}

const PIECES = [
  "a",
  "Z",
  "_",
  "0",
  "9",
  ".",
  "-",
  ":",
  "A_B",
  "x1",
  "é",
  "ß",
  "$",
  "=",
  "/",
  "\\",
  "#",
  " ",
  "\t",
  "\n",
  "\r",
  "\u00a0",
  "\u3000",
  "\u2028",
  "\ufeff",
  "\u000b",
  "true",
  "TRUE",
  "No",
  "nOnE",
  "null",
  "yes",
  "FALSE",
];

function values(count: number, seed: number): string[] {
  const random = prng(seed);
  const out = ["", "a", "ab", "A1", "AB", "a:b", ":a", "a:", "a::b", "no", "No:x", "none", "nonE1", "x:TRUE", "x:True"];
  for (let i = 0; i < count; i++) {
    const n = 1 + Math.floor(random() * 6);
    let s = "";
    for (let k = 0; k < n; k++) s += PIECES[Math.floor(random() * PIECES.length)];
    out.push(s);
  }
  return out;
}

describe("value tests in place equal the regular expressions they replaced", () => {
  test("scanIdToken splits as /\\S+/g does and tests each token as the regular expression does", () => {
    let ids = 0;
    let others = 0;
    for (const v of values(40_000, 13)) {
      const want = (v.match(/\S+/g) ?? []).map((t) => [t, looksLikeAssetIdByRegex(t)]);
      // In the value alone and inside a longer text (offsets moved by 6).
      for (const [text, from] of [[v, 0], [`<x a="${v}"/>`, 6]] as const) {
        const got: (string | boolean)[][] = [];
        for (let i = skipSpace(text, from, from + v.length); i < from + v.length;) {
          const r = scanIdToken(text, i, from + v.length);
          const end = r >= 0 ? r : ~r;
          got.push([text.slice(i, end), r >= 0]);
          i = skipSpace(text, end, from + v.length);
        }
        expect([v, got]).toEqual([v, want]);
      }
      for (const [, id] of want) id ? ids++ : others++;
    }
    // The generated values hit both answers often.
    expect(ids).toBeGreaterThan(2_000);
    expect(others).toBeGreaterThan(5_000);
    expect([scanIdToken("Tank 12", 0, 7), scanIdToken("Tank 12", 5, 7), scanIdToken("TANK", 0, 4)]).toEqual([
      4,
      ~7,
      ~4,
    ]);
  });

  test("isSpace is exactly \\s; tokens and trimming split as /\\S+/g and trim() do", () => {
    for (let c = 0; c < 0x10000; c++) expect([c, isSpace(c)]).toEqual([c, /\s/.test(String.fromCharCode(c))]);
    for (const v of values(20_000, 12)) {
      const tokens: string[] = [];
      for (let i = skipSpace(v, 0, v.length); i < v.length;) {
        const end = skipToken(v, i, v.length);
        tokens.push(v.slice(i, end));
        i = skipSpace(v, end, v.length);
      }
      expect([v, tokens]).toEqual([v, v.match(/\S+/g) ?? []]);
      const start = skipSpace(v, 0, v.length);
      expect([v, v.slice(start, trimmedEnd(v, start, v.length))]).toEqual([v, v.trim()]);
      expect([v, isBlank(v, 0, v.length)]).toEqual([v, v.trim() === ""]);
    }
  });

  test("hasChar and hasAmpOrLt look only inside the range", () => {
    const text = "&ab<cd&";
    expect(hasChar(text, 38, 1, 6)).toBe(false);
    expect(hasChar(text, 38, 0, 1)).toBe(true);
    expect(hasChar(text, 38, 1, 7)).toBe(true);
    expect(hasAmpOrLt(text, 1, 3)).toBe(false);
    expect(hasAmpOrLt(text, 1, 4)).toBe(true);
    expect(hasAmpOrLt(text, 4, 6)).toBe(false);
  });
});
