/**
 * References in shallow-scanned art read the same whatever the file's encoding prefix: pure ASCII, a
 * UTF-8 BOM before ASCII (nearly every real `.w3x`: read in place after the BOM), and UTF-8 with other
 * characters (read in place too, through `utf8Source`'s offset table). Offsets are into the decoded text,
 * BOM removed, as everywhere.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { REPO_ROOT } from "../../scripts/corpora.ts";
import { artReferences, singleByteSource, stringSource, utf8Source } from "../../src/index/art-refs.ts";
import { parseFile } from "../../src/index/parse-file.ts";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { decodeXml } from "../../src/xml/decode.ts";
import { scanShallowAscii } from "../../src/xml/shallow.ts";

const schema = new Schema(loadSchema(join(REPO_ROOT, "examples", "sample-mod", "Schemas", "xsd")).model!);

const ART = `<?xml version="1.0" encoding="utf-8"?>
<AssetDeclaration xmlns="uri:ea.com:eala:asset">
  <W3DMesh id="AUTank_BODY" GeometryType="Normal"><BoundingBox><Min X="0" Y="0" Z="0"/><Max X="1" Y="1" Z="1"/></BoundingBox></W3DMesh>
  <W3DContainer id="AUTank_SKN" Hierarchy="AUTank_SKL">
    <SubObject SubObjectID="BODY" BoneIndex="1"><RenderObject><Mesh>AUTank_BODY</Mesh></RenderObject></SubObject>
  </W3DContainer>
</AssetDeclaration>
`;

function refsOf(bytes: Uint8Array) {
  return parseFile("Art/AU/AUTank.w3x", bytes, schema).refs.map((r) => [r.kind, r.value, r.offset, r.line, r.column]);
}

describe("art references and the encoding prefix", () => {
  test("ASCII, a UTF-8 BOM before ASCII, and UTF-8 with other characters give the same sites", () => {
    const ascii = new TextEncoder().encode(ART);
    const want = refsOf(ascii);
    expect(want.map((r) => r.slice(0, 2))).toEqual([["attribute", "AUTank_SKL"], ["content", "AUTank_BODY"]]);
    const hierarchy = ART.indexOf('"AUTank_SKL"') + 1;
    expect(want[0].slice(2)).toEqual([hierarchy, 4, ART.slice(0, hierarchy).length - ART.lastIndexOf("\n", hierarchy)]);
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...ascii]);
    expect(refsOf(bom)).toEqual(want);
    // A comment with "é" on the first line: two bytes, one UTF-16 unit, so the offsets move by the comment.
    const comment = "<!-- \u00e9 -->";
    const accented = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(ART.replace("?>", `?>${comment}`))]);
    const shifted = refsOf(accented);
    expect(shifted.map((r) => [r[0], r[1], r[3], r[4]])).toEqual(want.map((r) => [r[0], r[1], r[3], r[4]]));
    expect(shifted.map((r) => r[2])).toEqual(want.map((r) => (r[2] as number) + comment.length));
  });
});

describe("utf8Source: the decoded text's offsets over UTF-8 bytes", () => {
  // Characters of one to four bytes, many crossing the 1 KB checkpoints of the offset table.
  const pieces = ["a", "<M>", "é", "€", "模型", "😀", "\n", " ", "Hierarchy=", "\r\n"];
  let seed = 4242;
  const rand = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  let text = "";
  while (text.length < 30_000) text += pieces[rand(pieces.length)];
  const bytes = new TextEncoder().encode(text);
  const source = utf8Source(bytes);
  const reference = stringSource(text);
  /** A random offset where a character starts (never inside a surrogate pair). */
  const offset = (): number => {
    let o = rand(text.length + 1);
    if (o < text.length && text.charCodeAt(o) >= 0xdc00 && text.charCodeAt(o) <= 0xdfff) o--;
    return o;
  };

  test("length, slices and searches equal the decoded string's (2,000 random ranges)", () => {
    expect(bytes.length).toBeGreaterThan(12 * 1024);
    expect(source.length).toBe(text.length);
    for (let k = 0; k < 1000; k++) {
      const a = offset();
      const b = offset();
      const [s, e] = a <= b ? [a, b] : [b, a];
      expect(source.slice(s, e)).toBe(reference.slice(s, e));
      const needle = ["<M>", ">", "Hierarchy=", "\n", "zzz"][k % 5];
      expect(source.indexOf(needle, s)).toBe(reference.indexOf(needle, s));
    }
  });

  test("a multi-asset UTF-8 art file gives the sites of its ASCII twin (same offsets, lines, columns)", () => {
    // Each non-ASCII character has an ASCII stand-in of the same UTF-16 length: every position is equal.
    const lines = ['<?xml version="1.0" encoding="utf-8"?>', '<AssetDeclaration xmlns="uri:ea.com:eala:asset">'];
    for (let a = 0; a < 6; a++) {
      lines.push(`  <!-- modèle ${a} 模型 😀 -->`);
      lines.push(
        `  <W3DMesh id="T${a}_BODY" GeometryType="Normal"><BoundingBox><Min X="0" Y="0" Z="0"/></BoundingBox>`,
      );
      for (let v = 0; v < 60; v++) lines.push(`    <!-- é€😀 ${v} --><Vertex X="${v}" Y="${a}" Z="0.5"/>`);
      lines.push("  </W3DMesh>");
      lines.push(`  <!--模--><W3DContainer id="T${a}_SKN" Hierarchy="T${a}_SKL">`);
      lines.push(
        `    <SubObject SubObjectID="BODY" BoneIndex="1"><RenderObject><Mesh>T${a}_BODY</Mesh></RenderObject></SubObject>`,
      );
      lines.push("  </W3DContainer>");
    }
    lines.push("</AssetDeclaration>");
    const unicode = lines.join("\r\n");
    const twin = unicode.replaceAll("è", "e").replaceAll("é", "e").replaceAll("€", "E").replaceAll("模", "m")
      .replaceAll("型", "x").replaceAll("😀", "xx");
    expect(twin.length).toBe(unicode.length);
    const bom = [0xef, 0xbb, 0xbf];
    const utf8Refs = refsOf(new Uint8Array([...bom, ...new TextEncoder().encode(unicode)]));
    const asciiRefs = refsOf(new TextEncoder().encode(twin));
    expect(asciiRefs.length).toBe(12);
    expect(utf8Refs).toEqual(asciiRefs);
    expect(asciiRefs[10]).toEqual(["attribute", "T5_SKL", twin.indexOf('"T5_SKL"') + 1, 396, 48]);
  });
});

describe("singleByteSource: windows-1252 and ISO-8859-1 art read in place", () => {
  // A declared single-byte file with bytes 0x80–0x9F (windows-1252's €, …, ‰, Ÿ; C1 controls in ISO-8859-1)
  // before the assets, between them and inside a referenced value.
  const body = (a: number) =>
    `  <!-- mod\x80le ${a} \x85 \x89 \x9f \xe9 -->\n` +
    `  <W3DMesh id="T${a}_BODY"><BoundingBox><Min X="0" Y="0" Z="0"/></BoundingBox></W3DMesh>\n` +
    `  <W3DContainer id="T${a}_SKN" Hierarchy="T${a}_SKL\x80">\n` +
    `    <SubObject SubObjectID="B\x8a" BoneIndex="1"><RenderObject><Mesh>T${a}_BODY</Mesh></RenderObject></SubObject>\n` +
    `  </W3DContainer>\n`;
  const fileOf = (encoding: string | null): Uint8Array => {
    const declared = encoding === null ? "" : ` encoding="${encoding}"`;
    let text = `<?xml version="1.0"${declared}?>\r\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\r\n`;
    for (let a = 0; a < 5; a++) text += body(a).replaceAll("\n", "\r\n");
    text += "</AssetDeclaration>\r\n";
    return Uint8Array.from(text, (c) => c.charCodeAt(0));
  };

  for (const [encoding, cp1252] of [["windows-1252", true], ["ISO-8859-1", false]] as const) {
    test(`${encoding}: the sites of the file decoded whole (values, offsets, lines, columns)`, () => {
      const bytes = fileOf(encoding);
      const decoded = decodeXml(bytes).text;
      const { scan, singleByte } = scanShallowAscii(bytes);
      expect(singleByte).toBe(cp1252 ? "windows-1252" : "iso-8859-1");
      const want = artReferences(stringSource(decoded), scan, schema).map((r) => [r.value, r.offset, r.line, r.column]);
      expect(want.length).toBe(10);
      expect(want[0]).toEqual([cp1252 ? "T0_SKL\u20ac" : "T0_SKL\u0080", decoded.indexOf('"T0_SKL') + 1, 5, 40]);
      expect(parseFile("Art/T.w3x", bytes, schema).refs.map((r) => [r.value, r.offset, r.line, r.column])).toEqual(
        want,
      );
      const source = singleByteSource(bytes, cp1252);
      const reference = stringSource(decoded);
      expect(source.length).toBe(decoded.length);
      for (let s = 0; s < decoded.length; s += 37) {
        const e = Math.min(decoded.length, s + 1 + ((s * 7) % 300));
        expect(source.slice(s, e)).toBe(reference.slice(s, e));
        for (const needle of ["</W3DContainer>", ">", "\n", "zzz"]) {
          expect(source.indexOf(needle, s)).toBe(reference.indexOf(needle, s));
        }
      }
    });
  }

  test("bytes that are not UTF-8 and declare nothing are read as windows-1252, as decodeXml reads them", () => {
    const undeclared = fileOf(null);
    expect(scanShallowAscii(undeclared).singleByte).toBe("windows-1252");
    const decoded = decodeXml(undeclared).text;
    const { scan } = scanShallowAscii(undeclared);
    const want = artReferences(stringSource(decoded), scan, schema).map((r) => [r.value, r.offset, r.line, r.column]);
    expect(want[0][0]).toBe("T0_SKL\u20ac");
    expect(parseFile("Art/T.w3x", undeclared, schema).refs.map((r) => [r.value, r.offset, r.line, r.column])).toEqual(
      want,
    );
  });
});
