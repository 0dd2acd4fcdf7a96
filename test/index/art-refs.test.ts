/**
 * References in shallow-scanned art read the same whatever the file's encoding prefix: pure ASCII, a
 * UTF-8 BOM before ASCII (nearly every real `.w3x`: read in place after the BOM), and UTF-8 with other
 * characters (decoded first). Offsets are into the decoded text, BOM removed, as everywhere.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { REPO_ROOT } from "../../scripts/corpora.ts";
import { parseFile } from "../../src/index/parse-file.ts";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";

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
