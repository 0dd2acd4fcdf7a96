/**
 * The tokenizer's recovery mode (`recover: true`): on well-formed input it is strict mode exactly; on
 * broken input strict mode's events are a prefix of its events, the first error is the same, every
 * start has its end, and each kind of error resumes where a modder would expect. Also: it never throws
 * and stays linear on pathological input.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { decodeXml } from "../../src/xml/decode.ts";
import { MAX_REPORTED_ERRORS, parseXml } from "../../src/xml/tokenizer.ts";
import type { XmlError } from "../../src/xml/types.ts";
import { prng } from "../prng.ts";

const corpora = join(import.meta.dirname, "..", "..", "..", "shared", "corpora");

interface Run {
  readonly events: string[];
  readonly errors: string[];
  readonly first: XmlError | null;
}

/** Every event as one string: `<qname a=v …>` (with depth), `</qname>`, `"text"`. */
function events(text: string, recover: boolean): Run {
  const out: string[] = [];
  const errors: string[] = [];
  const first = parseXml(text, {
    startElement: (t) =>
      out.push(
        `${t.depth}<${t.qname}${t.attributes.map((a) => ` ${a.qname}=${a.value}`).join("")}${
          t.selfClosing ? "/" : ""
        }>`,
      ),
    endElement: (t) => out.push(`${t.depth}</${t.qname}>`),
    text: (v) => out.push(JSON.stringify(v)),
    error: (e) => errors.push(`${e.line}:${e.column} ${e.message}`),
  }, { recover });
  return { events: out, errors, first };
}

/** Starts and ends pair up like brackets (the stack is empty at the end). */
function balanced(evs: readonly string[]): boolean {
  const stack: string[] = [];
  for (const e of evs) {
    const m = /^(\d+)<(\/?)([^\s/>]+)/.exec(e);
    if (!m) continue;
    if (m[2] === "") {
      if (Number(m[1]) !== stack.length) return false;
      stack.push(m[3]);
    } else if (stack.pop() !== m[3]) return false;
  }
  return stack.length === 0;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.(xml|xsd)$/i.test(e.name) && statSync(p).size < 20_000) out.push(p);
  }
  return out.sort();
}

const SEED = `<?xml version="1.0"?>
<AssetDeclaration xmlns="uri:ea.com:eala:asset" xmlns:xi="http://www.w3.org/2001/XInclude">
  <Includes><Include type="all" source="DATA:a b.xml"/></Includes>
  <!-- a comment -->
  <GameObject id="Tank" inheritFrom="Base" Side="Allies">
    <Body><ActiveBody MaxHealth="=$HP * 2"/></Body>
    <xi:include href="DATA:Frag.xml" xpointer="xmlns(n=uri:ea.com:eala:asset) xpointer(/n:Behaviors/child::*)"/>
    <Text>a &amp; b<![CDATA[ <x> ]]></Text>
  </GameObject>
  <WeaponTemplate id="Gun" AttackRange="100"/>
</AssetDeclaration>
`;

describe("recovery on well-formed input is strict mode", () => {
  test("the seed and the corpus: the same events, no error", () => {
    const docs = [
      SEED,
      ...(existsSync(corpora) ? walk(corpora).slice(0, 400) : []).map((f) => decodeXml(readFileSync(f)).text),
    ];
    let compared = 0;
    for (const d of docs) {
      const strict = events(d, false);
      if (strict.first) continue; // the three malformed TW files
      const rec = events(d, true);
      expect(rec).toEqual({ ...strict, errors: [] });
      compared++;
    }
    expect(compared).toBeGreaterThan(existsSync(corpora) ? 300 : 0);
  });
});

describe("recovery on broken input", () => {
  test("5,000 mutations: strict events are a prefix, the first error is the same, starts and ends pair up", () => {
    const rnd = prng(1129);
    const chars = `<>/"'=&;!-[]?:xa `;
    let recovered = 0;
    for (let k = 0; k < 5000; k++) {
      let s = SEED;
      for (let m = 1 + Math.floor(rnd() * 3); m > 0; m--) {
        const pos = Math.floor(rnd() * s.length);
        s = rnd() < 0.5 ? s.slice(0, pos) + s.slice(pos + 1) : s.slice(0, pos) + chars[Math.floor(rnd() * 17)] +
          s.slice(pos);
      }
      const strict = events(s, false);
      const rec = events(s, true);
      expect(rec.first).toEqual(strict.first);
      expect(rec.events.slice(0, strict.events.length)).toEqual(strict.events);
      expect(balanced(rec.events)).toBe(true);
      expect(rec.errors.length > 0).toBe(strict.first !== null);
      if (strict.first && rec.events.length > strict.events.length) recovered++;
    }
    // Most broken documents go on past their first error.
    expect(recovered).toBeGreaterThan(2000);
  });

  test("a duplicated attribute: the first value is kept, the element and everything after it are read", () => {
    const r = events(`<A><B id="1" x="1" x="2"/><C id="2"/></A>`, true);
    expect(r.events).toEqual(["0<A>", "1<B id=1 x=1/>", "1</B>", "1<C id=2/>", "1</C>", "0</A>"]);
    expect(r.errors).toEqual(["1:20 duplicate attribute 'x' in start tag <B>"]);
  });

  test("the same namespace and local name twice: the second is dropped", () => {
    const r = events(`<A xmlns:p="u" xmlns:q="u"><B p:x="1" q:x="2"/></A>`, true);
    expect(r.events.slice(1, 2)).toEqual(["1<B p:x=1/>"]);
    expect(r.errors.length).toBe(1);
  });

  test("a broken start tag ends at its '>' with the attributes read so far; its children stay its children", () => {
    const r = events(`<A><B id="1" x=2><C/></B><D/></A>`, true);
    expect(r.events).toEqual(["0<A>", "1<B id=1>", "2<C/>", "2</C>", "1</B>", "1<D/>", "1</D>", "0</A>"]);
    expect(r.errors).toEqual(["1:16 the value of attribute 'x' must be quoted"]);
  });

  test("a start tag missing its '>' ends before the next '<'", () => {
    const r = events(`<A><B id="1"<C/></B></A>`, true);
    expect(r.events).toEqual(["0<A>", "1<B id=1>", "2<C/>", "2</C>", "1</B>", "0</A>"]);
  });

  test("broken references stay as written; bad characters are reported and kept", () => {
    const r = events(`<A t="a &b c">x &nope; y\u0001<B/></A>`, true);
    expect(r.events).toEqual(["0<A t=a &b c>", JSON.stringify("x &nope; y\u0001"), "1<B/>", "1</B>", "0</A>"]);
    expect(r.errors).toEqual([
      "1:9 entity reference '&b' must end with ';'",
      "1:17 undefined entity '&nope;'",
      "1:25 invalid XML character U+0001",
    ]);
  });

  test("an end tag naming an open ancestor closes up to it; an end tag naming nothing open is ignored", () => {
    expect(events(`<A><B><C></B><D/></A>`, true).events).toEqual([
      "0<A>",
      "1<B>",
      "2<C>",
      "2</C>",
      "1</B>",
      "1<D/>",
      "1</D>",
      "0</A>",
    ]);
    const stray = events(`<A></X><B/></A>`, true);
    expect(stray.events).toEqual(["0<A>", "1<B/>", "1</B>", "0</A>"]);
    expect(stray.errors).toEqual(["1:4 end tag </X> does not match start tag <A> (line 1, column 1)"]);
  });

  test("elements still open at the end of the file are closed there", () => {
    const r = events(`<A><B>text`, true);
    expect(r.events).toEqual(["0<A>", "1<B>", JSON.stringify("text"), "1</B>", "0</A>"]);
    expect(r.errors).toEqual(["1:11 end of file reached, but element <B> (line 1, column 4) is not closed"]);
  });

  test("an unclosed comment runs to the end; a '--' inside a comment ends it at the next '-->'", () => {
    expect(events(`<A><!-- <B/>`, true).events).toEqual(["0<A>", "0</A>"]);
    expect(events(`<A><!-- a -- b --><B/></A>`, true).events).toEqual(["0<A>", "1<B/>", "1</B>", "0</A>"]);
  });

  test("a second root element is read as one more tree at depth 0", () => {
    const r = events(`<A/><B><C/></B>`, true);
    expect(r.events).toEqual(["0<A/>", "0</A>", "0<B>", "1<C/>", "1</C>", "0</B>"]);
    expect(r.errors).toEqual(["1:5 second root element <B> (a document has exactly one root element)"]);
  });

  test("junk before the root, and '<' not starting a name, resume at the next '<'", () => {
    expect(events(`junk<A>< b<B/></A>`, true).events).toEqual(["0<A>", "1<B/>", "1</B>", "0</A>"]);
  });

  test(`at most ${MAX_REPORTED_ERRORS} errors reach the visitor; parsing goes on after them`, () => {
    const r = events(`<A>${"</X>".repeat(500)}<B/></A>`, true);
    expect(r.errors.length).toBe(MAX_REPORTED_ERRORS);
    expect(r.events).toEqual(["0<A>", "1<B/>", "1</B>", "0</A>"]);
  });

  test("never throws on random bytes", () => {
    const rnd = prng(7);
    for (let k = 0; k < 500; k++) {
      let s = "";
      for (let n = Math.floor(rnd() * 200); n > 0; n--) s += String.fromCharCode(Math.floor(rnd() * 0x80));
      expect(() => events(s, true)).not.toThrow();
    }
  });
});

describe("recovery stays linear on pathological input (a quadratic path would time out)", () => {
  const N = 200_000;
  const visitor = { startElement: () => {}, endElement: () => {} };

  test("many stray end tags, many unclosed elements, many broken tags, many broken comments", () => {
    let starts = 0;
    const counting = { startElement: () => starts++, endElement: () => {} };
    expect(parseXml("<r>" + "</x>".repeat(N / 4) + "</r>", counting, { recover: true })?.message).toContain("</x>");
    expect(parseXml("<a>".repeat(N), counting, { recover: true })?.message).toContain("is not closed");
    expect(parseXml("<r>" + "<b x=1>".repeat(N / 8), counting, { recover: true })?.message).toContain("quoted");
    expect(parseXml("<r>" + "<!--".repeat(N / 4), visitor, { recover: true })?.message).toBe(
      "'--' is not allowed inside a comment",
    );
    expect(parseXml("<r>" + "< ".repeat(N / 2) + "</r>", visitor, { recover: true })).not.toBeNull();
    expect(parseXml("<r>" + "<?p ?".repeat(N / 4), visitor, { recover: true })).not.toBeNull();
    expect(starts).toBe(1 + N + 1 + N / 8);
  });

  test("nested elements closed by one end tag naming the root", () => {
    const ends: number[] = [];
    parseXml("<r>" + "<a>".repeat(N / 4) + "</r>", { startElement: () => {}, endElement: (t) => ends.push(t.depth) }, {
      recover: true,
    });
    expect(ends.length).toBe(N / 4 + 1);
    expect(ends[ends.length - 1]).toBe(0);
  });
});
