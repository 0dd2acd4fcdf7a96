import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeXml } from "../../src/xml/decode.ts";
import { LineMap } from "../../src/xml/line-map.ts";
import {
  countLineBreaks,
  countUtf16Units,
  lastLineBreak,
  scanShallow,
  scanShallowAscii,
} from "../../src/xml/shallow.ts";
import { parseXml } from "../../src/xml/tokenizer.ts";
import type { ShallowScan, XmlAttribute } from "../../src/xml/types.ts";
import { CORPORA } from "../../scripts/corpora.ts";

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Position of the first occurrence of `needle` (after `after`) in `text`, as the scanner reports it. */
function at(text: string, needle: string, after = ""): { line: number; column: number; offset: number } {
  const offset = text.indexOf(needle, after ? text.indexOf(after) : 0);
  if (offset < 0) throw new Error(`test bug: ${needle} not in text`);
  return { ...new LineMap(text).position(offset), offset };
}

describe("scanShallow: records", () => {
  const doc = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<AssetDeclaration xmlns="uri:ea.com:eala:asset" xmlns:xi="http://www.w3.org/2001/XInclude">',
    "  <Includes>",
    '    <Include type="all" source="Art Folder/My File.w3x"/>',
    '    <Include type="bogus" source="b.xml"/>',
    '    <Include source="c.xml"/>',
    '    <Include type="instance" source=""/>',
    '    <Include type="instance"/>',
    "  </Includes>",
    '  <Defines><Define name="MAX" value="3"/><Define name="NOVALUE"/><Define name="" value="x"/></Defines>',
    '  <W3DMesh id="Mesh1"><V X="1"/><Sub><Deep id="not-top-level"/></Sub></W3DMesh>',
    '  <GameObject id="a&amp;b" inheritFrom="X"/>',
    "  <NoId/>",
    '  <EmptyId id=""/>',
    '  <xi:include href="Root Level.xml" xpointer="xmlns(n=uri:ea.com:eala:asset) xpointer(/n:A/child::*)"/>',
    '  <Includes><Include type="reference" source="DATA:static.xml"/></Includes>',
    "</AssetDeclaration>",
  ].join("\n");
  const result = scanShallow(utf8(doc));

  test("root name and no error", () => {
    expect(result.rootName).toBe("AssetDeclaration");
    expect(result.error).toBeNull();
  });

  test("top-level assets: non-empty ids of the root's children, entity-decoded, value and element positions", () => {
    expect(result.assets).toEqual([
      { type: "W3DMesh", id: "Mesh1", ...at(doc, "Mesh1"), start: doc.indexOf("<W3DMesh") },
      { type: "GameObject", id: "a&b", ...at(doc, "a&amp;b"), start: doc.indexOf("<GameObject") },
    ]);
    expect(result.assets[0]).toMatchObject({ line: 11, column: 16 });
  });

  test("includes: every root-level <Includes>, type only all|instance|reference, empty or missing source ignored", () => {
    expect(result.includes).toEqual([
      { type: "all", rawType: "all", source: "Art Folder/My File.w3x", ...at(doc, "Art Folder") },
      { type: null, rawType: "bogus", source: "b.xml", ...at(doc, "b.xml") },
      { type: null, rawType: null, source: "c.xml", ...at(doc, "c.xml") },
      { type: "reference", rawType: "reference", source: "DATA:static.xml", ...at(doc, "DATA:static.xml") },
    ]);
    expect(result.includes[0]).toMatchObject({ line: 4, column: 33 });
  });

  test("defines: non-empty name, value defaulting to ''", () => {
    expect(result.defines).toEqual([
      { name: "MAX", value: "3", ...at(doc, "MAX") },
      { name: "NOVALUE", value: "", ...at(doc, "NOVALUE") },
    ]);
  });

  test("xi:include: href and xpointer, root level flag", () => {
    expect(result.xincludes).toEqual([
      {
        href: "Root Level.xml",
        xpointer: "xmlns(n=uri:ea.com:eala:asset) xpointer(/n:A/child::*)",
        rootLevel: true,
        ...at(doc, "Root Level.xml"),
      },
    ]);
  });
});

describe("scanShallow: subtree skipping stays correct", () => {
  const ids = (doc: string): string[] => scanShallow(utf8(doc)).assets.map((a) => `${a.type}:${a.id}`);

  test("an end tag inside a comment, CDATA or PI does not end the element", () => {
    expect(ids('<R><M id="a"><!-- </M> --><x/></M><N id="b"/></R>')).toEqual(["M:a", "N:b"]);
    expect(ids('<R><M id="a"><![CDATA[</M>]]></M><N id="b"/></R>')).toEqual(["M:a", "N:b"]);
    expect(ids('<R><M id="a"><?pi </M> ?></M><N id="b"/></R>')).toEqual(["M:a", "N:b"]);
  });

  test("a nested element with the same name is not mistaken for a sibling", () => {
    expect(ids('<R><M id="a"><M id="inner"></M></M><M id="b"/></R>')).toEqual(["M:a", "M:b"]);
  });

  test("end tags with a longer name or trailing whitespace", () => {
    expect(ids('<R><M id="a"><MX></MX></M ><N id="b"/></R>')).toEqual(["M:a", "N:b"]);
  });

  test("an include element hidden deep inside a top-level element is still found", () => {
    const r = scanShallow(utf8('<R xmlns:xi="x"><M id="a"><Sub><xi:include href="deep.xml"/></Sub></M></R>'));
    expect(r.xincludes.map((x) => [x.href, x.rootLevel])).toEqual([["deep.xml", false]]);
    expect(r.assets.map((a) => a.id)).toEqual(["a"]);
  });

  test("quote-aware tags: '>' and '/>' inside values", () => {
    const r = scanShallow(utf8(`<R><M id="x>y" k='/>'><c/></M><N id='z'/></R>`));
    expect(r.assets.map((a) => a.id)).toEqual(["x>y", "z"]);
    expect(r.error).toBeNull();
  });

  test("lenient attribute forms: unquoted value, valueless attribute", () => {
    expect(ids("<R><M id=foo k/><N id/><O k id = bar></O></R>")).toEqual(["M:foo", "O:bar"]);
  });

  test("a prefixed top-level element: type is the local name", () => {
    expect(ids('<R xmlns:p="u"><p:M id="a"><x/></p:M></R>')).toEqual(["M:a"]);
  });
});

describe("scanShallow: encodings and positions", () => {
  test("BOM and CRLF", () => {
    const text = '<R>\r\n  <M id="a"/>\r\n</R>';
    const r = scanShallow(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)]));
    expect(r.assets).toEqual([{ type: "M", id: "a", line: 2, column: 10, offset: 14, start: 7 }]);
  });

  test("lone CR line ends", () => {
    const r = scanShallow(utf8('<R>\r\r<M id="a"/></R>'));
    expect(r.assets[0]).toMatchObject({ line: 3, column: 8, offset: 12 });
  });

  test("UTF-8 multi-byte text before a record: offsets and columns in UTF-16 units", () => {
    const text = '<R a="é😀"><M id="ü"/></R>';
    const r = scanShallow(utf8(text));
    expect(r.assets).toEqual([{ type: "M", id: "ü", line: 1, column: 19, offset: 18, start: 11 }]);
    expect(text.indexOf("ü")).toBe(18);
  });

  test("UTF-16 LE input gives the positions of the decoded text", () => {
    const text = '<R>\n<M id="é"/></R>';
    const le = [0xff, 0xfe];
    for (let i = 0; i < text.length; i++) le.push(text.charCodeAt(i) & 0xff, text.charCodeAt(i) >> 8);
    expect(scanShallow(new Uint8Array(le)).assets).toEqual([{
      type: "M",
      id: "é",
      line: 2,
      column: 8,
      offset: 11,
      start: 4,
    }]);
  });

  test("declared windows-1252: values use the 1252 table, one character per byte", () => {
    const head = '<?xml version="1.0" encoding="windows-1252"?><R><M id="';
    const bytes = new Uint8Array([...utf8(head), 0x80, 0xe9, ...utf8('"/></R>')]);
    expect(scanShallow(bytes).assets).toEqual([{ type: "M", id: "€é", line: 1, column: 56, offset: 55, start: 48 }]);
  });

  test("invalid UTF-8 is read as windows-1252, like decodeXml", () => {
    const bytes = new Uint8Array([...utf8('<R a="'), 0xe9, ...utf8('"><M id="x'), 0xff, ...utf8('"/></R>')]);
    const decoded = decodeXml(bytes);
    expect(decoded.encoding).toBe("windows-1252");
    expect(scanShallow(bytes).assets).toEqual([
      { type: "M", id: "xÿ", ...at(decoded.text, "xÿ"), start: decoded.text.indexOf("<M") },
    ]);
  });
});

describe("scanShallowAscii: the scan's own answer to whether the bytes after a UTF-8 BOM are ASCII, or UTF-8", () => {
  test("ASCII, after a BOM, UTF-8, invalid UTF-8: known and right; a declared single-byte encoding, UTF-16: unknown", () => {
    const bom = [0xef, 0xbb, 0xbf];
    const cases: [string, Uint8Array, boolean | null, boolean][] = [
      ["ascii", utf8('<R><M id="a"/></R>'), true, false],
      ["ascii after a BOM", new Uint8Array([...bom, ...utf8('<R><M id="a"/></R>')]), true, false],
      ["utf-8", utf8('<R><M id="é"/></R>'), false, true],
      ["utf-8 after a BOM", new Uint8Array([...bom, ...utf8('<R><M id="é"/></R>')]), false, true],
      ["invalid utf-8", new Uint8Array([...utf8('<R><M id="x'), 0xff, ...utf8('"/></R>')]), false, false],
      [
        "declared windows-1252",
        utf8('<?xml version="1.0" encoding="windows-1252"?><R><M id="é"/></R>'),
        null,
        false,
      ],
      ["utf-16le", new Uint8Array([0xff, 0xfe, 0x3c, 0, 0x52, 0, 0x2f, 0, 0x3e, 0]), null, false],
    ];
    for (const [name, bytes, ascii, isUtf8] of cases) {
      const both = scanShallowAscii(bytes);
      expect([name, both.ascii, both.utf8]).toEqual([name, ascii, isUtf8]);
      expect([name, both.scan]).toEqual([name, scanShallow(bytes)]);
      if (ascii !== null) {
        const body = bytes[0] === 0xef ? bytes.subarray(3) : bytes;
        expect([name, body.every((b) => b < 0x80)]).toEqual([name, ascii]);
      }
    }
  });
});

describe("scanShallow: errors stop the scan and keep what was found", () => {
  const cases: [string, string, ShallowScan["error"], string[]][] = [
    ["unterminated comment", '<R><M id="a"/>\n<!-- x', {
      message: "comment is not closed (missing '-->')",
      offset: 15,
      line: 2,
      column: 1,
    }, ["a"]],
    ["unterminated CDATA", '<R><M id="a"/><![CDATA[', {
      message: "CDATA section is not closed (missing ']]>')",
      offset: 14,
      line: 1,
      column: 15,
    }, ["a"]],
    ["unterminated PI", '<R><M id="a"/><?pi', {
      message: "processing instruction is not closed (missing '?>')",
      offset: 14,
      line: 1,
      column: 15,
    }, ["a"]],
    ["unterminated DOCTYPE", '<!DOCTYPE R [ <!ENTITY x "y">', {
      message: "declaration is not closed (missing '>')",
      offset: 0,
      line: 1,
      column: 1,
    }, []],
    ["unterminated start tag", '<R><M id="a"/><N id="b', {
      message: "start tag <N> is not closed (missing '>')",
      offset: 14,
      line: 1,
      column: 15,
    }, ["a"]],
    ["unterminated end tag", '<R><M id="a"></M', {
      message: "end tag is not closed (missing '>')",
      offset: 13,
      line: 1,
      column: 14,
    }, ["a"]],
    ["mismatched end tag", '<R><M id="a"/></X>', {
      message: "end tag </X> does not match start tag <R>",
      offset: 14,
      line: 1,
      column: 15,
    }, ["a"]],
    ["unclosed element at the end of file", '<R><M id="a"/>', {
      message: "end of file reached, but element <R> is not closed",
      offset: 14,
      line: 1,
      column: 15,
    }, ["a"]],
    ["empty document", "", { message: "document has no root element", offset: 0, line: 1, column: 1 }, []],
  ];
  for (const [name, doc, error, ids] of cases) {
    test(name, () => {
      const r = scanShallow(utf8(doc));
      expect(r.error).toEqual(error);
      expect(r.assets.map((a) => a.id)).toEqual(ids);
    });
  }

  test("an empty document has no root name", () => {
    expect(scanShallow(new Uint8Array(0)).rootName).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Shallow scanner vs full tokenizer on the real corpus.

const corpora = CORPORA;

function walk(dir: string, accept: (name: string) => boolean, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, accept, out);
    else if (accept(e.name)) out.push(p);
  }
  return out;
}

const attr = (attributes: readonly XmlAttribute[], qname: string): XmlAttribute | undefined =>
  attributes.find((a) => a.qname === qname);

/** The same records, derived from parseXml events (null when the file is not well-formed). */
function fromFullParse(bytes: Uint8Array): Omit<ShallowScan, "error"> | null {
  const { text } = decodeXml(bytes);
  const map = new LineMap(text);
  const pos = (offset: number) => ({ ...map.position(offset), offset });
  const out = {
    rootName: null as string | null,
    assets: [] as ShallowScan["assets"][number][],
    includes: [] as ShallowScan["includes"][number][],
    defines: [] as ShallowScan["defines"][number][],
    xincludes: [] as ShallowScan["xincludes"][number][],
  };
  let depth1: string | null = null;
  const error = parseXml(text, {
    startElement(t) {
      if (t.depth === 0) out.rootName = t.local;
      if (t.depth === 1) {
        depth1 = t.local;
        const id = attr(t.attributes, "id");
        if (id && id.value !== "") {
          out.assets.push({ type: t.local, id: id.value, ...pos(id.valueStart), start: t.start });
        }
      }
      if (t.depth === 2 && depth1 === "Includes" && t.local === "Include") {
        const source = attr(t.attributes, "source");
        const rawType = attr(t.attributes, "type")?.value ?? null;
        const type = rawType === "all" || rawType === "instance" || rawType === "reference" ? rawType : null;
        if (source && source.value !== "") {
          out.includes.push({ type, rawType, source: source.value, ...pos(source.valueStart) });
        }
      }
      if (t.depth === 2 && depth1 === "Defines" && t.local === "Define") {
        const name = attr(t.attributes, "name");
        if (name && name.value !== "") {
          out.defines.push({
            name: name.value,
            value: attr(t.attributes, "value")?.value ?? "",
            ...pos(name.valueStart),
          });
        }
      }
      if (t.local === "include") {
        const href = attr(t.attributes, "href");
        if (href && href.value !== "") {
          out.xincludes.push({
            href: href.value,
            xpointer: attr(t.attributes, "xpointer")?.value ?? null,
            rootLevel: t.depth === 1,
            ...pos(href.valueStart),
          });
        }
      }
    },
    endElement(t) {
      if (t.depth === 1) depth1 = null;
    },
  });
  return error ? null : out;
}

describe("scanShallow vs parseXml on the corpus", () => {
  const sets: [string, string, (name: string) => boolean][] = [
    ["upheaval .w3x", join(corpora, "upheaval"), (n) => /\.w3x$/i.test(n)],
    ["upheaval Data/**/*.xml", join(corpora, "upheaval", "Data"), (n) => /\.xml$/i.test(n)],
    ["tw-sdk CnC3Xml/**/*.xml", join(corpora, "tw-sdk", "CnC3Xml"), (n) => /\.xml$/i.test(n)],
  ];
  for (const [name, dir, accept] of sets) {
    test.skipIf(!existsSync(dir))(name, () => {
      const files = walk(dir, accept);
      let compared = 0;
      let records = 0;
      for (const f of files) {
        const bytes = readFileSync(f);
        const full = fromFullParse(bytes);
        if (full === null) continue; // not well-formed: the full parser has no records to compare
        const { error, ...shallow } = scanShallow(bytes);
        if (error !== null || JSON.stringify(shallow) !== JSON.stringify(full)) {
          expect({ file: f, error, ...shallow }).toEqual({ file: f, error: null, ...full });
        }
        compared++;
        records += full.assets.length + full.includes.length + full.defines.length + full.xincludes.length;
      }
      // Nearly every file is well-formed, and the comparison covered real records.
      expect(compared).toBeGreaterThan(files.length * 0.99);
      expect(records).toBeGreaterThanOrEqual(files.length);
    }, 30_000);
  }
});

describe("countLineBreaks / lastLineBreak: the art scan's line count, a word at a time", () => {
  /** The byte-by-byte rule they replace: LF, or CR not followed by LF. */
  const isBreak = (b: Uint8Array, k: number): boolean => b[k] === 0x0a || (b[k] === 0x0d && b[k + 1] !== 0x0a);
  const naiveCount = (b: Uint8Array, from: number, to: number): number => {
    let n = 0;
    for (let k = from; k < to; k++) if (isBreak(b, k)) n++;
    return n;
  };
  const naiveLast = (b: Uint8Array, from: number, to: number): number => {
    for (let k = to - 1; k >= from; k--) if (isBreak(b, k)) return k;
    return -1;
  };

  test("a known text: LF, CRLF and a lone CR each one break; a CRLF cut at the range's end counts at its LF", () => {
    const b = utf8("ab\ncd\r\nef\rgh\r\n");
    expect(countLineBreaks(b, 0, b.length)).toBe(4);
    expect(lastLineBreak(b, 0, b.length)).toBe(13);
    // [0, 13) ends on the CR of the last CRLF: that CR is not a break, the lone CR at 9 is the last one.
    expect(countLineBreaks(b, 0, 13)).toBe(3);
    expect(lastLineBreak(b, 0, 13)).toBe(9);
    expect(countLineBreaks(b, 3, 3)).toBe(0);
    expect(lastLineBreak(b, 3, 3)).toBe(-1);
  });

  test("random bytes, unaligned views and ranges: equal to the byte-by-byte count", () => {
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const alphabet = [0x0a, 0x0d, 0x0d, 0x41, 0x20, 0x3c, 0x8a, 0x8d, 0xff, 0x00];
    for (let round = 0; round < 400; round++) {
      const backing = new Uint8Array(80 + rand(200));
      for (let i = 0; i < backing.length; i++) backing[i] = alphabet[rand(alphabet.length)];
      const start = rand(7);
      const view = backing.subarray(start);
      const from = rand(view.length);
      const to = from + rand(view.length - from + 1);
      expect(countLineBreaks(view, from, to)).toBe(naiveCount(view, from, to));
      expect(lastLineBreak(view, from, to)).toBe(naiveLast(view, from, to));
    }
  });

  test("an art file with CRLF line ends: every asset on the same line as with LF", () => {
    const lines = ['<?xml version="1.0"?>', '<AssetDeclaration xmlns="uri:ea.com:eala:asset">'];
    for (let a = 0; a < 5; a++) {
      lines.push(`  <W3DMesh id="M${a}">`);
      for (let v = 0; v < 40 + a * 7; v++) lines.push(`    <V X="${v}" Y="${a}" Z="0.5"/>`);
      lines.push("  </W3DMesh>");
    }
    lines.push("</AssetDeclaration>");
    const lf = scanShallowAscii(utf8(lines.join("\n"))).scan;
    const crlf = scanShallowAscii(utf8(lines.join("\r\n"))).scan;
    const placed = (s: ShallowScan) => s.assets.map((a) => [a.id, a.line, a.column]);
    expect(placed(crlf)).toEqual(placed(lf));
    expect(placed(lf)).toEqual([["M0", 3, 16], ["M1", 45, 16], ["M2", 94, 16], ["M3", 150, 16], ["M4", 213, 16]]);
  });
});

describe("countUtf16Units: the UTF-8 art scan's offsets, a word at a time", () => {
  /** The byte-by-byte rule it replaces: lead and ASCII bytes one unit, 4-byte leads two, continuations none. */
  const naiveUnits = (b: Uint8Array, from: number, to: number): number => {
    let n = 0;
    for (let k = from; k < to; k++) n += b[k] < 0x80 || (b[k] >= 0xc0 && b[k] < 0xf0) ? 1 : b[k] >= 0xf0 ? 2 : 0;
    return n;
  };

  test("a known text: the length of the decoded string", () => {
    const text = "a é € 😀\r\nz";
    const b = utf8(text);
    expect(b.length).toBe(16);
    expect(countUtf16Units(b, 0, b.length)).toBe(text.length);
    expect(text.length).toBe(11);
    // From the second byte of "é" (a continuation: none) over the space and "€" (three bytes: one).
    expect(countUtf16Units(b, 3, 8)).toBe(2);
  });

  test("long mostly-ASCII ranges (the native ASCII test first): equal to the byte-by-byte count", () => {
    // 2 KB of ASCII with one 2-, 3- or 4-byte character at a random place: ranges that hold it and ranges
    // that do not, long and short.
    let seed = 31;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const chars = [utf8("é"), utf8("€"), utf8("😀")];
    let pure = 0;
    for (let round = 0; round < 300; round++) {
      const backing = new Uint8Array(2048).fill(0x41);
      const c = chars[rand(3)];
      backing.set(c, rand(2048 - 4));
      const view = backing.subarray(rand(7));
      const from = rand(view.length);
      const to = from + rand(view.length - from + 1);
      if (!view.subarray(from, to).some((b) => b >= 0x80) && to - from >= 64) pure++;
      expect(countUtf16Units(view, from, to)).toBe(naiveUnits(view, from, to));
    }
    expect(pure).toBeGreaterThan(50);
    // A range that ends on a 4-byte lead (two units) or starts on a continuation (none).
    const b = new Uint8Array(200).fill(0x41);
    b.set(utf8("😀"), 100);
    expect(countUtf16Units(b, 0, 101)).toBe(102);
    expect(countUtf16Units(b, 101, 200)).toBe(96);
    expect(countUtf16Units(b, 0, 100)).toBe(100);
  });

  test("random bytes, unaligned views and ranges: equal to the byte-by-byte count", () => {
    let seed = 987;
    const rand = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const alphabet = [0x41, 0x0a, 0x0d, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xbf, 0xc0, 0xef, 0xff];
    for (let round = 0; round < 400; round++) {
      const backing = new Uint8Array(80 + rand(200));
      for (let i = 0; i < backing.length; i++) backing[i] = alphabet[rand(alphabet.length)];
      const view = backing.subarray(rand(7));
      const from = rand(view.length);
      const to = from + rand(view.length - from + 1);
      expect(countUtf16Units(view, from, to)).toBe(naiveUnits(view, from, to));
    }
  });

  test("a UTF-8 art file with non-ASCII text, LF and CRLF: each asset where the decoded text has it", () => {
    const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<AssetDeclaration xmlns="uri:ea.com:eala:asset">'];
    for (let a = 0; a < 4; a++) {
      lines.push(`  <!-- Modèle ${a} — 模型 😀 -->`);
      lines.push(`  <W3DMesh id="M${a}" Note="größe €${a}">`);
      for (let v = 0; v < 30 + a * 11; v++) lines.push(`    <V X="${v}" Y="é${a}" Z="0.5"/>`);
      lines.push(`  </W3DMesh><!--é😀--><W3DHierarchy id="H${a}" Name="骨${a}"/>`);
    }
    lines.push("</AssetDeclaration>");
    for (const eol of ["\n", "\r\n"]) {
      const text = lines.join(eol);
      const scan = scanShallow(utf8(text));
      expect(scan.error).toBeNull();
      const expected = ["M0", "H0", "M1", "H1", "M2", "H2", "M3", "H3"].map((id) => {
        const p = at(text, `id="${id}"`);
        return [id, p.line, p.column + 4, p.offset + 4];
      });
      expect(scan.assets.map((a) => [a.id, a.line, a.column, a.offset])).toEqual(expected);
    }
    const lf = scanShallow(utf8(lines.join("\n")));
    expect(lf.assets.map((a) => [a.id, a.line, a.column])).toEqual([
      ["M0", 4, 16],
      ["H0", 35, 41],
      ["M1", 37, 16],
      ["H1", 79, 41],
      ["M2", 81, 16],
      ["H2", 134, 41],
      ["M3", 136, 16],
      ["H3", 200, 41],
    ]);
  });
});
