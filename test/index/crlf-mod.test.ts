/**
 * A mod checked out with CRLF line ends (Git for Windows' `core.autocrlf`, or files saved by Windows tools)
 * indexes exactly as the same mod with LF: every asset, reference site and diagnostic on the same line and
 * column, art included. The sample mod is read from disk and linked through the in-memory fixture, as
 * written (2 of its files already CRLF) and with every line end of its text files made `\r\n`.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import type { LinkedIndex } from "../../src/index/linked.ts";
import { assetsOf, diagnosticsOf, memIndex, rel } from "./fixture.ts";

const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");
const schema = new Schema(loadSchema(join(SAMPLE, "Schemas", "xsd")).model!);

/** The sample mod's indexed files (relative path → bytes), with LF turned into CRLF when `crlf`. */
function sampleFiles(crlf: boolean): Record<string, Uint8Array> {
  const out: Record<string, Uint8Array> = {};
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(xml|w3x|str)$/i.test(e.name)) {
        const bytes = readFileSync(p);
        out[relative(SAMPLE, p).replaceAll("\\", "/")] = crlf
          ? Buffer.from(bytes.toString("latin1").replace(/\r?\n/g, "\r\n"), "latin1")
          : bytes;
      }
    }
  };
  walk(SAMPLE);
  return out;
}

const sitesOf = (linked: LinkedIndex): string[] =>
  linked.sites.map((s) => `${rel(s.file)}:${s.line}:${s.column} ${s.kind} ${s.value} ${s.status}`);

describe("a CRLF checkout of the sample mod", () => {
  const lf = memIndex(sampleFiles(false), schema).linked;
  const crlf = memIndex(sampleFiles(true), schema).linked;

  test("the fixture really differs in its bytes: every text file of the CRLF copy has CRs, 2 as written", () => {
    const withCr = (files: Record<string, Uint8Array>) => Object.values(files).filter((b) => b.includes(0x0d)).length;
    const count = Object.keys(sampleFiles(false)).length;
    expect(count).toBe(16);
    expect(withCr(sampleFiles(false))).toBe(2);
    expect(withCr(sampleFiles(true))).toBe(count);
  });

  test("the same assets, reference sites and diagnostics, at the same lines and columns", () => {
    expect(assetsOf(crlf)).toEqual(assetsOf(lf));
    expect(sitesOf(crlf)).toEqual(sitesOf(lf));
    expect(diagnosticsOf(crlf)).toEqual(diagnosticsOf(lf));
    expect(lf.assets.length).toBeGreaterThan(10);
    expect(lf.sites.length).toBeGreaterThan(10);
  });

  test("art assets keep their lines (the shallow scan's count of CRLF breaks)", () => {
    const art = (linked: LinkedIndex) => assetsOf(linked).filter((a) => a.includes(".w3x:"));
    expect(art(crlf)).toEqual(art(lf));
    expect(art(crlf).map((a) => a.split(" ")[0])).toEqual([
      "W3DMesh:AUUnusedProp.MESH@Art/AU/AUUnusedProp.w3x:3",
      "W3DContainer:AUUnusedProp@Art/AU/AUUnusedProp.w3x:26",
      "W3DHierarchy:AUAthena_SKL@Art/AU/AUAthena_SKN.w3x:3",
      "W3DMesh:AUAthena_SKN.HULL@Art/AU/AUAthena_SKN.w3x:7",
      "W3DMesh:AUAthena_SKN.TURRET@Art/AU/AUAthena_SKN.w3x:94",
      "W3DContainer:AUAthena_SKN@Art/AU/AUAthena_SKN.w3x:161",
      "W3DContainer:AUAthena_Headlight@Art/AU/AUAthena_SKN.w3x:165",
    ]);
  });
});
