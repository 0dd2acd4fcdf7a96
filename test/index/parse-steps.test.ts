/**
 * A file's record parsed in steps (`parseFileSteps`, what a server's build does for one big XML file,
 * pausing between steps) equals the record of one plain parse — assets, references, includes, defines,
 * every diagnostic with its position — on the sample mod (with its schema and without), Upheaval's big
 * map files (heuristic and with the RA3 schema) and a generated big file, whole and broken.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CORPORA } from "../../scripts/corpora.ts";
import { extractXmlRecord, extractXmlRecordSteps } from "../../src/index/extract-xml.ts";
import { IndexCore } from "../../src/index/core.ts";
import { parseFile, parseFileSteps } from "../../src/index/parse-file.ts";
import type { FileRecord } from "../../src/index/records.ts";
import { loadSchema } from "../../src/schema/load.ts";
import type { SchemaQueries } from "../../src/schema/model.ts";
import { Schema } from "../../src/schema/schema.ts";
import { decodeXml } from "../../src/xml/decode.ts";
import { bigDocument } from "../xml/big-document.ts";

const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");
const UPHEAVAL = join(CORPORA, "upheaval");
const RA3_XSD = join(CORPORA, "ra3-xsd");
const sampleSchema = new Schema(loadSchema(join(SAMPLE, "Schemas", "xsd")).model!);

/** The record in steps of `stepChars`, and how many steps it took. */
function stepped(
  path: string,
  bytes: Uint8Array,
  schema: SchemaQueries | null,
  stepChars: number,
): { record: FileRecord; steps: number } {
  const g = parseFileSteps(path, bytes, schema, stepChars);
  for (let steps = 1;; steps++) {
    const s = g.next();
    if (s.done) return { record: s.value, steps };
  }
}

function xmlUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.xml$/i.test(f)).map((f) => join(dir, f))
    .sort();
}

/** Expects the stepped records to equal the plain one; returns the step counts. */
function expectSameRecord(path: string, bytes: Uint8Array, schema: SchemaQueries | null, sizes: number[]): number[] {
  const want = parseFile(path, bytes, schema);
  return sizes.map((size) => {
    const got = stepped(path, bytes, schema, size);
    expect(got.record).toEqual(want);
    return got.steps;
  });
}

describe("a record parsed in steps equals the plain parse", () => {
  test("the sample mod's files, with its schema and without, down to one character per step", () => {
    const files = xmlUnder(SAMPLE);
    expect(files.length).toBeGreaterThan(5);
    let withSites = 0;
    for (const f of files) {
      const bytes = readFileSync(f);
      for (const schema of [sampleSchema, null]) expectSameRecord(f, bytes, schema, [1, 61, 4096]);
      if (parseFile(f, bytes, sampleSchema).refs.length > 0) withSites++;
    }
    expect(withSites).toBeGreaterThan(3);
  });

  test("a generated big file: the same record, in one step per 64 K characters; the tokenizer's plain path too", () => {
    const text = bigDocument(1_200);
    const bytes = new TextEncoder().encode(text);
    const want = parseFile("/m/Data/Big.xml", bytes, sampleSchema);
    expect(want.assets.length).toBe(2_400);
    expect(want.refs.length).toBe(2_400); // inheritFrom and Side of each unit (the sample schema's reference types)
    // Elements the sample schema does not declare: the first 200 of each code held, the rest counted.
    expect(want.diagnostics.length).toBe(400);
    expect(want.omittedDiagnostics.reduce((n, g) => n + g.count, 0)).toBeGreaterThan(4_600);
    const [steps] = expectSameRecord("/m/Data/Big.xml", bytes, sampleSchema, [65536, 1000]);
    expect(steps).toBeGreaterThanOrEqual(Math.floor(text.length / (65536 + 300)));
    expect(steps).toBeLessThanOrEqual(Math.ceil(text.length / 65536) + 1);
    expectSameRecord("/m/Data/Big.xml", bytes, null, [65536]);
    // extractXmlRecord runs the tokenizer's plain parse (parseXml), parseFile its stepped one unbounded.
    const g = extractXmlRecordSteps(text, sampleSchema, 4096);
    let s = g.next();
    while (!s.done) s = g.next();
    expect(s.value).toEqual(extractXmlRecord(text, sampleSchema));
  });

  test("a generated big file, broken: the same diagnostics and what is read after each error", () => {
    const text = bigDocument(300)
      .replace('<GameObject id="Unit40"', '<GameObject id="Unit40" id="Twice"')
      .replace("</Body>", "</Bodyy>")
      .replace('id="Gun200"', 'id="Gun200')
      .replace("&amp;", "&nope;");
    const bytes = new TextEncoder().encode(text);
    const want = parseFile("/m/Data/Broken.xml", bytes, sampleSchema);
    expect(want.diagnostics.filter((d) => d.code === "xml-syntax").length).toBeGreaterThanOrEqual(4);
    expectSameRecord("/m/Data/Broken.xml", bytes, sampleSchema, [1, 997]);
    // A file that is not XML at all, an empty one, a non-XML extension: one step, the same record.
    for (const [path, b] of [["/m/a.xml", new Uint8Array()], ["/m/b.xml", new Uint8Array([0, 1, 2])]] as const) {
      expect(expectSameRecord(path, b, null, [1])).toEqual([1]);
    }
    expect(expectSameRecord("/m/Data/Big.str", new TextEncoder().encode('KEY:A\n"a"\nEND\n'), null, [1])).toEqual([1]);
  });

  test.skipIf(!existsSync(UPHEAVAL))(
    "Upheaval's twelve largest files (its maps), heuristic and with the RA3 schema",
    () => {
      const big = xmlUnder(UPHEAVAL).map((f) => ({ f, size: statSync(f).size })).sort((a, b) => b.size - a.size)
        .slice(0, 12).map((x) => x.f);
      const ra3 = existsSync(RA3_XSD) ? new Schema(loadSchema(RA3_XSD).model!) : null;
      let sites = 0;
      for (const [k, f] of big.entries()) {
        const bytes = readFileSync(f);
        expectSameRecord(f, bytes, null, [65536]);
        // With the schema: every fourth file (the RA3 set types every map object: many more reference sites).
        if (ra3 && k % 4 === 0) {
          expectSameRecord(f, bytes, ra3, [65536]);
          sites += parseFile(f, bytes, ra3).refs.length;
        }
      }
      if (ra3) expect(sites).toBeGreaterThan(1000);
      expect(decodeXml(readFileSync(big[11])).text.length).toBeGreaterThan(800_000);
    },
    60_000,
  );

  test("a big file's bytes are not held by its steps: they are freed while its text is parsed", async () => {
    const text = bigDocument(1_200);
    let freed = false;
    const registry = new FinalizationRegistry(() => {
      freed = true;
    });
    // The bytes exist only inside this function: the steps are all that could hold them afterwards.
    const start = () => {
      const bytes = new TextEncoder().encode(text);
      registry.register(bytes, "bytes");
      return new IndexCore(sampleSchema).applyChangeSteps({ path: "C:/Mod/Data/Big.xml", bytes }, 65_536);
    };
    const g = start();
    let freedAt = -1;
    let steps = 0;
    for (let s = g.next(); !s.done; s = g.next()) {
      steps++;
      if (freedAt < 0 && steps % 2 === 0) {
        Bun.gc(true);
        await new Promise((r) => setTimeout(r, 0));
        if (freed) freedAt = steps;
      }
    }
    expect(steps).toBeGreaterThan(10);
    expect(freedAt).toBeGreaterThan(0);
    expect(freedAt).toBeLessThan(steps);
  });
});
