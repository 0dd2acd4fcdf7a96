/**
 * The tokenizer in steps (`parseXmlSteps`, for one big file in a server that keeps answering): for any
 * step size the visitor sees exactly the events of one `parseXml` run — every start tag, end tag, text
 * run, comment, processing instruction and error, with their offsets — and the result is the same, on
 * the sample mod, Upheaval, a generated big document and broken documents (recovery and strict mode).
 * The step count follows the size: a big document yields about once per step.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CORPORA } from "../../scripts/corpora.ts";
import { runSteps } from "../../src/steps.ts";
import { decodeXml } from "../../src/xml/decode.ts";
import { parseXml, parseXmlSteps } from "../../src/xml/tokenizer.ts";
import type { ParseOptions } from "../../src/xml/tokenizer.ts";
import type { XmlError, XmlVisitor } from "../../src/xml/types.ts";
import { bigDocument } from "./big-document.ts";

const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");
const UPHEAVAL = join(CORPORA, "upheaval");

/** Every event as one string, positions included. */
function recorder(): { readonly visitor: XmlVisitor; readonly events: string[] } {
  const events: string[] = [];
  const visitor: XmlVisitor = {
    startElement: (t) =>
      events.push(
        `${t.start}-${t.end} ${t.depth}<${t.qname} ${t.uri}${
          t.attributes.map((a) => ` ${a.qname}[${a.uri}]=${a.value}@${a.nameStart},${a.valueStart},${a.valueEnd}`)
            .join("")
        }${t.selfClosing ? "/" : ""}>`,
      ),
    endElement: (t) => events.push(`${t.start}-${t.end} ${t.depth}</${t.qname} ${t.uri}>`),
    text: (v, s, e) => events.push(`${s}-${e} ${JSON.stringify(v)}`),
    comment: (v, s, e) => events.push(`${s}-${e} <!--${v}-->`),
    processingInstruction: (target, body, s, e) => events.push(`${s}-${e} <?${target} ${body}?>`),
    error: (e) => events.push(`error ${e.offset} ${e.line}:${e.column} ${e.message}`),
  };
  return { visitor, events };
}

interface Outcome {
  readonly events: readonly string[];
  readonly result: XmlError | null;
  readonly steps: number;
}

function plain(text: string, options: ParseOptions): Outcome {
  const r = recorder();
  return { events: r.events, result: parseXml(text, r.visitor, options), steps: 1 };
}

function stepped(text: string, options: ParseOptions, stepChars: number): Outcome {
  const r = recorder();
  const g = parseXmlSteps(text, r.visitor, options, stepChars);
  let steps = 1;
  for (;;) {
    const s = g.next();
    if (s.done) return { events: r.events, result: s.value, steps };
    steps++;
  }
}

/** The XML files under `dir` (recursively), sorted. */
function xmlUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => /\.xml$/i.test(f))
    .map((f) => join(dir, f))
    .sort();
}

const RECOVER: ParseOptions = { recover: true };
const STRICT: ParseOptions = {};

/** Expects every step size to give the plain run's events and result; returns the stepped runs. */
function expectSame(text: string, options: ParseOptions, sizes: readonly number[]): Outcome[] {
  const want = plain(text, options);
  return sizes.map((size) => {
    const got = stepped(text, options, size);
    expect(got.result).toEqual(want.result);
    expect(got.events).toEqual(want.events as string[]);
    return got;
  });
}

describe("parseXmlSteps gives the events of parseXml", () => {
  test("the sample mod's XML, every step size from 1 character up (recovery and strict)", () => {
    const files = xmlUnder(join(SAMPLE, "Data"));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const text = decodeXml(readFileSync(f)).text;
      expectSame(text, RECOVER, [1, 7, 100, 4096]);
      expectSame(text, STRICT, [1, 100]);
    }
  });

  test("a generated big document: the same events, and about one yield per step", () => {
    const text = bigDocument(2_000);
    expect(text.length).toBeGreaterThan(1_000_000);
    const [small, large] = expectSame(text, RECOVER, [4096, 65536]);
    // A step ends at the first construct after its share of characters: the count follows the size.
    // Each step but the last passes its share and at most one construct more (here < 300 characters).
    for (const [run, size] of [[small, 4096], [large, 65536]] as const) {
      expect(run.steps).toBeGreaterThanOrEqual(Math.floor(text.length / (size + 300)));
      expect(run.steps).toBeLessThanOrEqual(Math.ceil(text.length / size) + 1);
    }
    // Namespace-less runs too (prefixes are only split there).
    expectSame(text, { recover: true, namespaces: false }, [5000]);
  });

  test("broken documents: errors, recovery and the strict stop are the same in steps", () => {
    const base = bigDocument(60);
    const broken = [
      base.replace('<GameObject id="Unit7"', '<GameObject id="Unit7" id="Twice"'), // duplicate attribute
      base.replace("</Body>", "</Bodyy>"), // end tag naming no open element
      base.replace('id="Unit20"', 'id="Unit20'), // a start tag broken to the next quote
      base.replace("&amp;", "&nope;"), // an undefined entity
      base.slice(0, Math.floor(base.length * 0.7)), // cut off: elements left open at the end
      base.replace("<Body>", "<Body><<"), // a stray '<'
      base + "<Second/>", // a second root
      base.replace("</AssetDeclaration>", "</AssetDeclaration>trailing text"),
    ];
    for (const text of broken) {
      const [one] = expectSame(text, RECOVER, [1, 13, 997]);
      expect(one.events.some((e) => e.startsWith("error "))).toBe(true);
      const strict = plain(text, STRICT);
      expect(strict.result).not.toBeNull();
      expectSame(text, STRICT, [1, 13, 997]);
    }
  });

  test("a document with no content, a BOM, a prolog and a DOCTYPE, or only a root", () => {
    for (
      const text of [
        "<a/>",
        "\ufeff<?xml version='1.0'?><!DOCTYPE a><!-- c --><a x='1'>t<b/>u</a><!-- after -->",
        "<?xml version='1.0'?>\r\n<a>\r\n<b>x&lt;y</b>\r\n<![CDATA[<z>]]><?pi body?></a>\r\n",
        "",
        "no root",
      ]
    ) {
      expectSame(text, RECOVER, [1, 2, 50]);
      expectSame(text, STRICT, [1, 2, 50]);
    }
  });

  test("an infinite step is one step (the plain parse)", () => {
    const text = bigDocument(20);
    const g = parseXmlSteps(text, recorder().visitor, RECOVER, Infinity);
    expect(g.next().done).toBe(true);
    expect(runSteps(parseXmlSteps(text, recorder().visitor, RECOVER, Infinity))).toBeNull();
  });

  test.skipIf(!existsSync(UPHEAVAL))(
    "Upheaval's eight largest XML files (its maps: what a build parses in steps)",
    () => {
      const big = xmlUnder(UPHEAVAL).map((f) => ({ f, size: statSync(f).size })).sort((a, b) => b.size - a.size)
        .slice(0, 8);
      expect(big[7].size).toBeGreaterThan(800_000);
      for (const { f } of big) expectSame(decodeXml(readFileSync(f)).text, RECOVER, [4093]);
    },
    60_000,
  );
});
