import { describe, expect, test } from "bun:test";
import { LineMap } from "../../src/xml/line-map.ts";

describe("LineMap.position", () => {
  const map = new LineMap("a\nbc\r\nd\re");

  test("LF, CRLF and CR each end one line", () => {
    expect(map.lineCount).toBe(4);
    expect(map.position(0)).toEqual({ line: 1, column: 1 });
    expect(map.position(1)).toEqual({ line: 1, column: 2 });
    expect(map.position(2)).toEqual({ line: 2, column: 1 });
    expect(map.position(4)).toEqual({ line: 2, column: 3 }); // the CR of CRLF
    expect(map.position(5)).toEqual({ line: 2, column: 4 }); // the LF of CRLF still belongs to line 2
    expect(map.position(6)).toEqual({ line: 3, column: 1 });
    expect(map.position(8)).toEqual({ line: 4, column: 1 });
  });

  test("offsets are clamped to the text", () => {
    expect(map.position(-3)).toEqual({ line: 1, column: 1 });
    expect(map.position(999)).toEqual({ line: 4, column: 2 });
  });

  test("lineStart is the inverse of position", () => {
    expect([1, 2, 3, 4].map((l) => map.lineStart(l))).toEqual([0, 2, 6, 8]);
    expect(map.lineStart(99)).toBe(8);
  });

  test("a trailing newline opens an empty last line; the empty text has one line", () => {
    expect(new LineMap("x\n").position(2)).toEqual({ line: 2, column: 1 });
    expect(new LineMap("").position(0)).toEqual({ line: 1, column: 1 });
  });

  test("more lines than the first guess of their number (one per 32 characters): every start kept", () => {
    // 10,000 empty lines in 10,000 characters (LF, then lone CR, then CRLF): the table doubles many times.
    for (const br of ["\n", "\r", "\r\n"]) {
      const text = "x" + br.repeat(10_000);
      const m = new LineMap(text);
      expect(m.lineCount).toBe(10_001);
      expect([m.lineStart(2), m.lineStart(5_000), m.lineStart(10_001)]).toEqual(
        [1 + br.length, 1 + 4_999 * br.length, text.length],
      );
      expect(m.position(text.length)).toEqual({ line: 10_001, column: 1 });
    }
  });

  test("columns count UTF-16 code units", () => {
    expect(new LineMap("\ud83d\ude00x").position(2)).toEqual({ line: 1, column: 3 });
  });
});

describe("LineMap.byteOffset", () => {
  test("UTF-8: multi-byte and astral characters, plus the BOM", () => {
    const m = new LineMap("aé😀b");
    expect([0, 1, 2, 4, 5].map((o) => m.byteOffset(o, "utf-8", 0))).toEqual([0, 1, 3, 7, 8]);
    expect(m.byteOffset(2, "utf-8", 3)).toBe(6);
  });

  test("single-byte encodings count one byte per character; UTF-16 two per unit", () => {
    const m = new LineMap("a€b");
    expect(m.byteOffset(2, "windows-1252", 0)).toBe(2);
    expect(m.byteOffset(2, "iso-8859-1", 0)).toBe(2);
    expect(m.byteOffset(2, "us-ascii", 0)).toBe(2);
    expect(m.byteOffset(2, "utf-16le", 2)).toBe(6);
    expect(m.byteOffset(2, "utf-16be", 0)).toBe(4);
  });

  test("UTF-8 offsets across many checkpoint chunks agree with TextEncoder", () => {
    const pieces = ["abc", "é", "\n", "€", "😀", "xyz\r\n", "ß"];
    let text = "";
    for (let i = 0; text.length < 20_000; i++) text += pieces[(i * 7 + (i >> 3)) % pieces.length];
    const m = new LineMap(text);
    const enc = new TextEncoder();
    // Ask out of order, to exercise the lazily grown table both ways.
    for (const o of [19_000, 5, 8191, 8192, 4096, 12_345, 0, text.length]) {
      let at = o;
      if (at > 0 && at < text.length && text.charCodeAt(at) >= 0xdc00 && text.charCodeAt(at) <= 0xdfff) at--;
      expect(m.byteOffset(at, "utf-8", 3)).toBe(3 + enc.encode(text.slice(0, at)).length);
    }
  });
});

describe("LineMap.lineOf / columnOf (the cursor)", () => {
  /** Line and column by counting from the start, the definition the fast paths must match. */
  function naive(text: string, offset: number): { line: number; column: number } {
    const o = Math.max(0, Math.min(offset, text.length));
    let line = 1;
    let start = 0;
    for (let i = 0; i < o; i++) {
      const c = text[i];
      if (c === "\n" || (c === "\r" && text[i + 1] !== "\n")) {
        line++;
        start = i + 1;
      } else if (c === "\r") {
        if (i + 1 < o) {
          line++;
          i++;
          start = i + 1;
        }
      }
    }
    return { line, column: o - start + 1 };
  }

  test("every offset, asked in order, backwards and at random, matches counting from the start", () => {
    const texts = [
      "",
      "a",
      "\n",
      "ab\ncd\n\nef",
      "a\r\nb\rc\n\r\nd\r",
      "x".repeat(50) + "\n".repeat(5) + "\r\n".repeat(5),
      // Only CRLF (the LF search), and a lone CR at the very end or before another CR (the character loop).
      "a\r\nb\r\nc",
      "\r\n",
      "ab\r",
      "\r\r\n\n",
    ];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const text of texts) {
      const offsets = Array.from({ length: text.length + 3 }, (_, i) => i - 1);
      const orders = [offsets, [...offsets].reverse(), offsets.map(() => Math.floor(random() * (text.length + 3)) - 1)];
      for (const order of orders) {
        const map = new LineMap(text);
        for (const o of order) {
          const want = naive(text, o);
          expect([map.lineOf(o), map.columnOf(o)]).toEqual([want.line, want.column]);
          expect(map.position(o)).toEqual(want);
        }
      }
    }
  });

  test("questions that jump ahead by up to thousands of lines, or back, match counting from the start", () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    // 20,000 lines of 0–8 characters, ending in LF or CRLF (the LF search), then once more with lone CRs.
    const lines = Array.from({ length: 20_000 }, () => "y".repeat(Math.floor(random() * 9)));
    const crlf = lines.map((l) => l + (random() < 0.5 ? "\n" : "\r\n")).join("");
    const mixed = lines.map((l) => l + ["\n", "\r\n", "\r"][Math.floor(random() * 3)]).join("");
    for (const text of [crlf, mixed]) {
      const map = new LineMap(text);
      let o = 0;
      let asked = 0;
      while (o <= text.length) {
        expect([o, map.lineOf(o)]).toEqual([o, naive(text, o).line]);
        asked++;
        // Mostly a few lines on, sometimes thousands, now and then back.
        const r = random();
        const gap = r < 0.75 ? Math.floor(random() * 40) : r < 0.95 ? Math.floor(random() * 10_000) : 1;
        if (r > 0.95 && o > 100) {
          const back = o - 1 - Math.floor(random() * Math.min(o - 1, 2000));
          expect([back, map.lineOf(back)]).toEqual([back, naive(text, back).line]);
        }
        o += gap + 1;
      }
      expect(asked).toBeGreaterThan(100);
      expect(map.lineOf(text.length)).toBe(text === crlf ? 20_001 : naive(text, text.length).line);
    }
  });
});
