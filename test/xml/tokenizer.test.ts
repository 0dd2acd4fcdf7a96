import { describe, expect, test } from "bun:test";
import { parseXml, XML_NAMESPACE, XMLNS_NAMESPACE } from "../../src/xml/tokenizer.ts";
import {
  VALUE_HAS_DOLLAR,
  VALUE_HAS_INNER_COLON,
  VALUE_HAS_NON_ASCII,
  VALUE_HAS_SPACE,
  type XmlError,
} from "../../src/xml/types.ts";

type Event = (string | number | boolean | unknown[])[];

/** All events as compact arrays: positions included, so every offset is asserted. */
function run(text: string, namespaces = true): { events: Event[]; error: XmlError | null } {
  const events: Event[] = [];
  const error = parseXml(
    text,
    {
      startElement: (t) =>
        events.push([
          "start",
          t.qname,
          t.prefix,
          t.local,
          t.uri,
          t.start,
          t.end,
          t.depth,
          t.selfClosing,
          t.attributes.map((a) => [a.qname, a.prefix, a.local, a.uri, a.value, a.nameStart, a.valueStart, a.valueEnd]),
        ]),
      endElement: (t) => events.push(["end", t.qname, t.local, t.uri, t.start, t.end, t.depth]),
      text: (v, s, e) => events.push(["text", v, s, e]),
      comment: (v, s, e) => events.push(["comment", v, s, e]),
      processingInstruction: (target, body, s, e) => events.push(["pi", target, body, s, e]),
    },
    { namespaces },
  );
  return { events, error };
}

function errorOf(text: string, namespaces = true): XmlError | null {
  return parseXml(text, { startElement: () => {} }, { namespaces });
}

describe("parseXml: well-formed constructs", () => {
  test("XML declaration, self-closing root, no events for the declaration", () => {
    expect(run('<?xml version="1.0" encoding="utf-8"?>\n<a/>')).toEqual({
      events: [
        ["start", "a", "", "a", "", 39, 43, 0, true, []],
        ["end", "a", "a", "", 39, 43, 0],
      ],
      error: null,
    });
  });

  test("nested elements, depth, text runs with whitespace, end tag offsets", () => {
    expect(run("<r>\n <c>x</c >\n</r>").events).toEqual([
      ["start", "r", "", "r", "", 0, 3, 0, false, []],
      ["text", "\n ", 3, 5],
      ["start", "c", "", "c", "", 5, 8, 1, false, []],
      ["text", "x", 8, 9],
      ["end", "c", "c", "", 9, 14, 1],
      ["text", "\n", 14, 15],
      ["end", "r", "r", "", 15, 19, 0],
    ]);
  });

  test("attributes: both quote styles, offsets, spaces around '=', values with spaces and '>'", () => {
    const { events, error } = run(`<Include type = "all" source='Art Folder/My File.w3x' x="a>b"/>`);
    expect(error).toBeNull();
    expect(events[0]).toEqual([
      "start",
      "Include",
      "",
      "Include",
      "",
      0,
      63,
      0,
      true,
      [
        ["type", "", "type", "", "all", 9, 17, 20],
        ["source", "", "source", "", "Art Folder/My File.w3x", 22, 30, 52],
        ["x", "", "x", "", "a>b", 54, 57, 60],
      ],
    ]);
  });

  test("comments and processing instructions inside and outside the root", () => {
    expect(run("<!-- a --><?pi x  y ?><r><!----><?t?></r><!--z-->").events).toEqual([
      ["comment", " a ", 0, 10],
      ["pi", "pi", "x  y ", 10, 22],
      ["start", "r", "", "r", "", 22, 25, 0, false, []],
      ["comment", "", 25, 32],
      ["pi", "t", "", 32, 37],
      ["end", "r", "r", "", 37, 41, 0],
      ["comment", "z", 41, 49],
    ]);
  });

  test("CDATA is delivered as text (span inside the markers), markup inside is not parsed", () => {
    expect(run("<r><![CDATA[<x> & ]] ]]></r>").events).toEqual([
      ["start", "r", "", "r", "", 0, 3, 0, false, []],
      ["text", "<x> & ]] ", 12, 21],
      ["end", "r", "r", "", 24, 28, 0],
    ]);
  });

  test("DOCTYPE with an internal subset is skipped (quotes, comments and PIs in it honoured)", () => {
    const doc = `<!DOCTYPE r SYSTEM "r.dtd" [ <!ELEMENT r ANY> <!ATTLIST r a CDATA "]>"> <!-- ]> --> <?p ]>?> ]>\n<r/>`;
    expect(run(doc).events).toEqual([
      ["start", "r", "", "r", "", 96, 100, 0, true, []],
      ["end", "r", "r", "", 96, 100, 0],
    ]);
  });

  test("predefined entities and character references are decoded in text and attributes", () => {
    expect(run(`<r a="&lt;&gt;&amp;&apos;&quot;&#65;&#x42;&#x1F600;">x&amp;y&#233;</r>`).events).toEqual([
      ["start", "r", "", "r", "", 0, 53, 0, false, [["a", "", "a", "", "<>&'\"AB😀", 3, 6, 51]]],
      ["text", "x&y\u00e9", 53, 66],
      ["end", "r", "r", "", 66, 70, 0],
    ]);
  });

  test("attribute-value normalisation: tab, LF, CR and CRLF become one space each; references keep them", () => {
    const { events } = run(`<r a="1\t2\n3\r4\r\n5&#9;&#10;&#13;"/>`);
    expect((events[0][9] as unknown[][])[0][4]).toBe("1 2 3 4 5\t\n\r");
  });

  test("verbatim: a value is the document's text in place unless it has a reference, a tab or a line break", () => {
    const doc = `<r a="GameObject 12" b="x&amp;y" c="1\t2" d="" e='q"q'/>`;
    const seen: [string, boolean, string][] = [];
    parseXml(doc, {
      startElement: (t) => {
        for (const a of t.attributes) seen.push([a.qname, a.verbatim, doc.slice(a.valueStart, a.valueEnd)]);
      },
    });
    expect(seen).toEqual([
      ["a", true, "GameObject 12"],
      ["b", false, "x&amp;y"],
      ["c", false, "1\t2"],
      ["d", true, ""],
      ["e", true, 'q"q'],
    ]);
  });

  test("the tag and attribute objects are filled in again for each start tag; copies read in startElement stay right", () => {
    const tags: unknown[] = [];
    const copies: string[] = [];
    parseXml(`<r><a x="1" y="2"/><b z="3"/><c/></r>`, {
      startElement: (t) => {
        tags.push(t);
        copies.push(`${t.qname}:${t.attributes.map((a) => `${a.qname}=${a.value}`).join(",")}`);
      },
    });
    expect(copies).toEqual(["r:", "a:x=1,y=2", "b:z=3", "c:"]);
    // One object for every start tag (the contract of XmlVisitor.startElement): its fields are the last tag's.
    expect(new Set(tags).size).toBe(1);
  });

  test("CRLF and lone CR in text are normalised to LF; offsets stay raw", () => {
    expect(run("<r>a\r\nb\rc</r>").events[1]).toEqual(["text", "a\nb\nc", 3, 9]);
  });

  test("a leading U+FEFF (BOM left in the text) is skipped", () => {
    expect(run("\ufeff<r/>").events[0]).toEqual(["start", "r", "", "r", "", 1, 5, 0, true, []]);
  });

  test("names: non-ASCII and astral characters, dots, dashes, digits after the first character", () => {
    const { events, error } = run("<é.x-1 \ud83d\ude00='v'/>");
    expect(error).toBeNull();
    expect(events[0]).toEqual(["start", "é.x-1", "", "é.x-1", "", 0, 15, 0, true, [[
      "\ud83d\ude00",
      "",
      "\ud83d\ude00",
      "",
      "v",
      7,
      11,
      12,
    ]]]);
  });

  test("whitespace outside the root is not reported as text", () => {
    expect(run("\n <r/> \n").events.map((e) => e[0])).toEqual(["start", "end"]);
  });
});

describe("parseXml: namespaces", () => {
  test("default and prefixed namespaces, scoping, xml prefix, xmlns attributes, unprefixed attributes have uri ''", () => {
    const doc =
      `<a xmlns="urn:d" xmlns:p="urn:p"><p:b x="1" p:y="2" xml:lang="en"/><c xmlns="" xmlns:p="urn:q"><p:d/></c><e/></a>`;
    const { events, error } = run(doc);
    expect(error).toBeNull();
    const starts = events.filter((e) => e[0] === "start").map((e) => [e[1], e[2], e[3], e[4]]);
    expect(starts).toEqual([
      ["a", "", "a", "urn:d"],
      ["p:b", "p", "b", "urn:p"],
      ["c", "", "c", ""],
      ["p:d", "p", "d", "urn:q"],
      ["e", "", "e", "urn:d"],
    ]);
    const a = events[0][9] as unknown[][];
    expect(a.map((x) => [x[0], x[1], x[2], x[3]])).toEqual([
      ["xmlns", "", "xmlns", XMLNS_NAMESPACE],
      ["xmlns:p", "xmlns", "p", XMLNS_NAMESPACE],
    ]);
    const b = events[1][9] as unknown[][];
    expect(b.map((x) => [x[0], x[1], x[2], x[3], x[4]])).toEqual([
      ["x", "", "x", "", "1"],
      ["p:y", "p", "y", "urn:p", "2"],
      ["xml:lang", "xml", "lang", XML_NAMESPACE, "en"],
    ]);
    const endOfPd = events.find((e) => e[0] === "end" && e[1] === "p:d")!;
    expect(endOfPd).toEqual(["end", "p:d", "d", "urn:q", 95, 101, 2]);
  });

  test("the xi:include shape used by mods", () => {
    const doc =
      `<AssetDeclaration xmlns="uri:ea.com:eala:asset" xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="x.xml" xpointer="xmlns(n=uri:ea.com:eala:asset) xpointer(/n:Foo/child::*)"/></AssetDeclaration>`;
    const { events } = run(doc);
    expect([events[1][1], events[1][3], events[1][4]]).toEqual([
      "xi:include",
      "include",
      "http://www.w3.org/2001/XInclude",
    ]);
  });

  test("namespaces: false keeps colons syntactic: prefix/local split, uri always ''", () => {
    const { events, error } = run(`<p:a q:x="1"><b:c/></p:a>`, false);
    expect(error).toBeNull();
    expect(events[0]).toEqual(["start", "p:a", "p", "a", "", 0, 13, 0, false, [["q:x", "q", "x", "", "1", 5, 10, 11]]]);
  });
});

describe("parseXml: errors (message, offset, line, column)", () => {
  const cases: [string, string, XmlError][] = [
    ["empty document", "", { message: "document has no root element", offset: 0, line: 1, column: 1 }],
    ["whitespace and a comment only", " \n<!-- c -->", {
      message: "document has no root element",
      offset: 12,
      line: 2,
      column: 11,
    }],
    ["mismatched end tag", "<r>\n  <a>\n  </b>\n</r>", {
      message: "end tag </b> does not match start tag <a> (line 2, column 3)",
      offset: 12,
      line: 3,
      column: 3,
    }],
    ["end tag naming a longer name than the open element's", "<r><ab></abc></r>", {
      message: "end tag </abc> does not match start tag <ab> (line 1, column 4)",
      offset: 7,
      line: 1,
      column: 8,
    }],
    ["end tag with a non-ASCII name character after the open element's name", "<r><ab></ab\u203f></r>", {
      message: "end tag </ab\u203f> does not match start tag <ab> (line 1, column 4)",
      offset: 7,
      line: 1,
      column: 8,
    }],
    ["end tag naming a shorter name than the open element's", "<r><abc></ab></r>", {
      message: "end tag </ab> does not match start tag <abc> (line 1, column 4)",
      offset: 8,
      line: 1,
      column: 9,
    }],
    ["unclosed element at end of file", "<r>\n<a>\n", {
      message: "end of file reached, but element <a> (line 2, column 1) is not closed",
      offset: 8,
      line: 3,
      column: 1,
    }],
    ["end tag with no open element after the root", "<r/></r>", {
      message: "end tag after the root element was closed",
      offset: 4,
      line: 1,
      column: 5,
    }],
    ["text after the root", "<r/>\nx", { message: "text after the root element", offset: 5, line: 2, column: 1 }],
    ["second root element", "<r/>\n<s/>", {
      message: "second root element <s> (a document has exactly one root element)",
      offset: 5,
      line: 2,
      column: 1,
    }],
    ["text before the root", "hello <r/>", { message: "text before the root element", offset: 0, line: 1, column: 1 }],
    ["end tag before the root", "</r>", { message: "end tag before the root element", offset: 0, line: 1, column: 1 }],
    ["duplicate attribute", `<r a="1" b="2" a="3"/>`, {
      message: "duplicate attribute 'a' in start tag <r>",
      offset: 15,
      line: 1,
      column: 16,
    }],
    ["duplicate expanded name", `<r xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>`, {
      message: "duplicate attribute '{u}x' ('p:x' and 'q:x' name the same namespace and local name)",
      offset: 35,
      line: 1,
      column: 36,
    }],
    ["unquoted value", "<r a=1/>", {
      message: "the value of attribute 'a' must be quoted",
      offset: 5,
      line: 1,
      column: 6,
    }],
    ["attribute without value", "<r a/>", {
      message: "attribute 'a' has no value (expected '=' and a quoted value)",
      offset: 3,
      line: 1,
      column: 4,
    }],
    ["no whitespace between attributes", `<r a="1"b="2"/>`, {
      message: "missing whitespace before attribute 'b' in start tag <r>",
      offset: 8,
      line: 1,
      column: 9,
    }],
    ["'<' in an attribute value", `<r a="x<y"/>`, {
      message: "'<' is not allowed in an attribute value (write '&lt;')",
      offset: 7,
      line: 1,
      column: 8,
    }],
    ["bare '&' in text", "<r>a & b</r>", {
      message: "'&' must start an entity or character reference (write '&amp;' for a literal '&')",
      offset: 5,
      line: 1,
      column: 6,
    }],
    ["bare '&' in an attribute", `<r a="&"/>`, {
      message: "'&' must start an entity or character reference (write '&amp;' for a literal '&')",
      offset: 6,
      line: 1,
      column: 7,
    }],
    ["entity without ';'", "<r>&amp x</r>", {
      message: "entity reference '&amp' must end with ';'",
      offset: 3,
      line: 1,
      column: 4,
    }],
    ["undefined entity", "<r>&nbsp;</r>", { message: "undefined entity '&nbsp;'", offset: 3, line: 1, column: 4 }],
    ["entity declared in the internal subset is unsupported", "<!DOCTYPE r [<!ENTITY e 'x'>]><r>&e;</r>", {
      message: "undefined entity '&e;'",
      offset: 33,
      line: 1,
      column: 34,
    }],
    ["character reference to a non-character", "<r>&#0;</r>", {
      message: "character reference '&#0;' is not an allowed XML character",
      offset: 3,
      line: 1,
      column: 4,
    }],
    ["character reference to a surrogate", "<r>&#xD800;</r>", {
      message: "character reference '&#xD800;' is not an allowed XML character",
      offset: 3,
      line: 1,
      column: 4,
    }],
    ["malformed character reference (uppercase X)", "<r>&#X41;</r>", {
      message: "malformed character reference '&#X' (expected '&#digits;' or '&#xhex;')",
      offset: 3,
      line: 1,
      column: 4,
    }],
    ["'--' inside a comment", "<r><!-- a -- b --></r>", {
      message: "'--' is not allowed inside a comment",
      offset: 10,
      line: 1,
      column: 11,
    }],
    ["comment ending in '--->'", "<r><!-- a ---></r>", {
      message: "'--' is not allowed inside a comment",
      offset: 10,
      line: 1,
      column: 11,
    }],
    ["unterminated comment", "<r>\n<!-- x", {
      message: "comment is not closed (missing '-->')",
      offset: 4,
      line: 2,
      column: 1,
    }],
    ["unterminated CDATA", "<r><![CDATA[x", {
      message: "CDATA section is not closed (missing ']]>')",
      offset: 3,
      line: 1,
      column: 4,
    }],
    ["CDATA outside the root", "<![CDATA[x]]><r/>", {
      message: "CDATA section outside the root element",
      offset: 0,
      line: 1,
      column: 1,
    }],
    ["']]>' in text", "<r>a]]>b</r>", {
      message: "']]>' is not allowed in text (write ']]&gt;')",
      offset: 4,
      line: 1,
      column: 5,
    }],
    ["unterminated PI", "<r><?p x", {
      message: "processing instruction is not closed (missing '?>')",
      offset: 3,
      line: 1,
      column: 4,
    }],
    ["XML declaration not at the start", " <?xml version='1.0'?><r/>", {
      message: "XML declaration is only allowed at the very start of the document",
      offset: 1,
      line: 1,
      column: 2,
    }],
    ["reserved PI target", "<r><?XML x?></r>", {
      message: "processing instruction target 'XML' is reserved",
      offset: 3,
      line: 1,
      column: 4,
    }],
    ["XML declaration without version", "<?xml encoding='utf-8'?><r/>", {
      message: "invalid XML declaration: 'version' must come first",
      offset: 6,
      line: 1,
      column: 7,
    }],
    ["XML declaration with a bad standalone value", "<?xml version='1.0' standalone='maybe'?><r/>", {
      message: "invalid XML declaration: invalid standalone 'maybe'",
      offset: 32,
      line: 1,
      column: 33,
    }],
    ["DOCTYPE after the root", "<r/><!DOCTYPE r>", {
      message: "DOCTYPE declaration after the root element",
      offset: 4,
      line: 1,
      column: 5,
    }],
    ["unterminated DOCTYPE", "<!DOCTYPE r [", {
      message: "DOCTYPE declaration is not closed (missing '>')",
      offset: 0,
      line: 1,
      column: 1,
    }],
    ["unknown '<!' markup", "<r><!ELEMENT></r>", {
      message: "'<!' must start a comment or CDATA section",
      offset: 3,
      line: 1,
      column: 4,
    }],
    ["undeclared element prefix", "<r>\n<p:a/></r>", {
      message: "undeclared namespace prefix 'p' in element <p:a>",
      offset: 5,
      line: 2,
      column: 2,
    }],
    ["undeclared attribute prefix", `<r p:a="1"/>`, {
      message: "undeclared namespace prefix 'p' in attribute 'p:a' of <r>",
      offset: 3,
      line: 1,
      column: 4,
    }],
    ["prefix out of scope after its element closed", `<r><a xmlns:p="u"/><p:b/></r>`, {
      message: "undeclared namespace prefix 'p' in element <p:b>",
      offset: 20,
      line: 1,
      column: 21,
    }],
    ["empty prefixed namespace", `<r xmlns:p=""/>`, {
      message: "the prefix 'p' cannot be bound to an empty namespace name",
      offset: 3,
      line: 1,
      column: 4,
    }],
    ["rebinding xml", `<r xmlns:xml="urn:x"/>`, {
      message: "the prefix 'xml' can only be bound to 'http://www.w3.org/XML/1998/namespace'",
      offset: 3,
      line: 1,
      column: 4,
    }],
    ["element with the xmlns prefix", `<xmlns:r/>`, {
      message: "element <xmlns:r> must not use the 'xmlns' prefix",
      offset: 1,
      line: 1,
      column: 2,
    }],
    ["two colons in a name", `<a:b:c/>`, {
      message: "invalid qualified name 'a:b:c' for an element (a name has at most one ':', between two names)",
      offset: 1,
      line: 1,
      column: 2,
    }],
    ["local part starting with a digit", `<r xmlns:p="u" p:1="x"/>`, {
      message: "invalid qualified name 'p:1' for an attribute (a name has at most one ':', between two names)",
      offset: 15,
      line: 1,
      column: 16,
    }],
    ["invalid first name character", "<1r/>", {
      message: "invalid element name: '<' must be followed by a name, found '1'",
      offset: 1,
      line: 1,
      column: 2,
    }],
    ["invalid character in a start tag", "<r%/>", {
      message: "invalid character '%' in start tag <r>",
      offset: 2,
      line: 1,
      column: 3,
    }],
    ["invalid character in an end tag", "<r></r x>", {
      message: "expected '>' to close end tag </r>, found 'x'",
      offset: 7,
      line: 1,
      column: 8,
    }],
    ["'/' not followed by '>'", "<r/ >", {
      message: "expected '>' after '/' in start tag <r>",
      offset: 2,
      line: 1,
      column: 3,
    }],
    ["start tag cut by the end of file", `<r a="1"`, {
      message: "start tag <r> is not closed (end of file reached)",
      offset: 0,
      line: 1,
      column: 1,
    }],
    ["attribute value cut by the end of file", `<r a="1`, {
      message: "the value of attribute 'a' is not closed (end of file reached)",
      offset: 5,
      line: 1,
      column: 6,
    }],
    ["control character in text", "<r>\u0001</r>", {
      message: "invalid XML character U+0001",
      offset: 3,
      line: 1,
      column: 4,
    }],
    ["unpaired surrogate in text", "<r>\ud800x</r>", {
      message: "invalid XML character U+D800",
      offset: 3,
      line: 1,
      column: 4,
    }],
    ["U+FFFE in an attribute", `<r a="\ufffe"/>`, {
      message: "invalid XML character U+FFFE",
      offset: 6,
      line: 1,
      column: 7,
    }],
    ["CRLF lines count once", "<r>\r\n\r\n<a></b></r>", {
      message: "end tag </b> does not match start tag <a> (line 3, column 1)",
      offset: 10,
      line: 3,
      column: 4,
    }],
    ["lone CR ends a line", "<r>\r\r<a></b></r>", {
      message: "end tag </b> does not match start tag <a> (line 3, column 1)",
      offset: 8,
      line: 3,
      column: 4,
    }],
    ["column counts UTF-16 units (an astral character is 2)", "<r>\ud83d\ude00&</r>", {
      message: "'&' must start an entity or character reference (write '&amp;' for a literal '&')",
      offset: 5,
      line: 1,
      column: 6,
    }],
  ];
  for (const [name, doc, expected] of cases) {
    test(name, () => {
      expect(errorOf(doc)).toEqual(expected);
    });
  }

  test("namespace errors do not apply when namespaces are off", () => {
    expect(errorOf(`<p:a q:x="1" xmlns:r=""/>`, false)).toBeNull();
    expect(errorOf(`<a:b:c/>`, false)).toBeNull();
  });

  test("events stop at the first error", () => {
    const { events, error } = run("<r><a/><b></r><c/>");
    expect(events.map((e) => e[0] + ":" + e[1])).toEqual(["start:r", "start:a", "end:a", "start:b"]);
    expect(error?.message).toBe("end tag </r> does not match start tag <b> (line 1, column 8)");
  });
});

describe("parseXml: names from the shared name table", () => {
  /** Every start tag's qname, prefix, local and attribute names, as reported. */
  function names(text: string): string[][] {
    const out: string[][] = [];
    const error = parseXml(text, {
      startElement: (t) =>
        out.push([t.qname, t.prefix, t.local, ...t.attributes.flatMap((a) => [a.qname, a.prefix, a.local])]),
    });
    expect(error).toBeNull();
    return out;
  }

  test("more distinct names than the table holds are each reported exactly (before and after it fills)", () => {
    // 20,000 names: the table keeps at most 8,192, the rest are plain slices; both must read the same.
    const n = 20_000;
    const body = Array.from({ length: n }, (_, i) => `<e${i} a${i}="v" p:b${i}="w"/>`).join("");
    const doc = `<r xmlns:p="urn:p">${body}</r>`;
    for (let round = 0; round < 2; round++) {
      const got = names(doc);
      expect(got.length).toBe(n + 1);
      expect(got[0]).toEqual(["r", "", "r", "xmlns:p", "xmlns", "p"]);
      for (let i = 0; i < n; i += 997) {
        expect(got[i + 1]).toEqual([`e${i}`, "", `e${i}`, `a${i}`, "", `a${i}`, `p:b${i}`, "p", `b${i}`]);
      }
      expect(got[n]).toEqual([
        `e${n - 1}`,
        "",
        `e${n - 1}`,
        `a${n - 1}`,
        "",
        `a${n - 1}`,
        `p:b${n - 1}`,
        "p",
        `b${n - 1}`,
      ]);
    }
  });

  test("names of the same length and hash neighbourhood, long names and non-ASCII names stay distinct", () => {
    const long = "L".repeat(65) + "x";
    const doc = `<r><ab ba="1"/><ba ab="2"/><${long} ${long}="3"/><Ünïcödé 名前="4"/><ab/></r>`;
    expect(names(doc)).toEqual([
      ["r", "", "r"],
      ["ab", "", "ab", "ba", "", "ba"],
      ["ba", "", "ba", "ab", "", "ab"],
      [long, "", long, long, "", long],
      ["Ünïcödé", "", "Ünïcödé", "名前", "", "名前"],
      ["ab", "", "ab"],
    ]);
  });

  test("an element's attribute names guessed from its previous start tag read exactly as scanned ones", () => {
    // Each <a> below differs from the one before it where a guess could go wrong: a longer name that
    // starts with the guess, another order, fewer and more names, a non-ASCII name character (U+203F) after the
    // guess, a prefixed name, a guess at the end of the document's text, and a duplicate of a guessed name.
    const doc = `<r xmlns:p="urn:p"><a Angle="1" Team="x"/><a AngleX="2" Team="y"/><a Team="z" AngleX="3"/>` +
      `<a An="4"/><a An="5" Team="6" Extra="7"/><a An‿="8" Team="9"/><a p:An="10" Team="11"/>` +
      `<a An="12" Team="13"/></r>`;
    const attrs: [string, string, string, string, number, number][][] = [];
    const error = parseXml(doc, {
      startElement: (t) => {
        if (t.qname === "a") {
          attrs.push(t.attributes.map((a) => [a.qname, a.prefix, a.local, a.value, a.nameStart, a.valueStart]));
        }
      },
    });
    expect(error).toBeNull();
    const at = (from: number, name: string) => doc.indexOf(` ${name}=`, from) + 1;
    const starts: number[] = [];
    for (let i = doc.indexOf("<a "); i >= 0; i = doc.indexOf("<a ", i + 1)) starts.push(i);
    const expected: [string, string, string, string][][] = [
      [["Angle", "", "Angle", "1"], ["Team", "", "Team", "x"]],
      [["AngleX", "", "AngleX", "2"], ["Team", "", "Team", "y"]],
      [["Team", "", "Team", "z"], ["AngleX", "", "AngleX", "3"]],
      [["An", "", "An", "4"]],
      [["An", "", "An", "5"], ["Team", "", "Team", "6"], ["Extra", "", "Extra", "7"]],
      [["An‿", "", "An‿", "8"], ["Team", "", "Team", "9"]],
      [["p:An", "p", "An", "10"], ["Team", "", "Team", "11"]],
      [["An", "", "An", "12"], ["Team", "", "Team", "13"]],
    ];
    expect(attrs).toEqual(expected.map((list, k) =>
      list.map(([q, prefix, local, value]) => {
        const nameStart = at(starts[k], q);
        return [q, prefix, local, value, nameStart, nameStart + q.length + 2] as [
          string,
          string,
          string,
          string,
          number,
          number,
        ];
      })
    ));
    const dup = parseXml(`<r><a x="1" y="2"/><a x="1" x="2"/></r>`, { startElement: () => {} });
    expect(dup?.message).toBe("duplicate attribute 'x' in start tag <a>");
    const dupLater = parseXml(`<r><a x="1" y="2" z="3"/><a x="1" y="2" y="3"/></r>`, { startElement: () => {} });
    expect(dupLater?.message).toBe("duplicate attribute 'y' in start tag <a>");
    const tail = parseXml(`<r><a Team="1"/><a Team`, { startElement: () => {} });
    expect(tail?.message).toBe("start tag <a> is not closed (end of file reached)");
  });

  test("an element's name guessed from the last one started at its depth reads exactly as a scanned one", () => {
    // Siblings that share a prefix with the guess, one name the guess is a prefix of, a prefixed name,
    // a non-ASCII name character (U+203F) after the guess, and the same names nested one level down.
    const doc = `<r xmlns:ab="urn:ab"><ab/><abc x="1"/><ab>t</ab><a/><ab:x/><ab/><ab‿/>` +
      `<ab><ab><abc/><ab/></ab></ab><Z/></r>`;
    const got: [string, string, string, number, number, number][] = [];
    const error = parseXml(doc, {
      startElement: (t) => got.push([t.qname, t.prefix, t.local, t.start, t.end, t.depth]),
    });
    expect(error).toBeNull();
    const names = [...doc.matchAll(/<([^/\s>]+)[^>]*>/g)].map((m) => [m[1], m.index!, m.index! + m[0].length] as const);
    expect(got).toEqual(names.map(([q, start, end]) => {
      const colon = q.indexOf(":");
      const depth = (doc.slice(0, start).match(/<[^/!?][^>]*[^/]>|<[^/!?]>/g) ?? []).length -
        (doc.slice(0, start).match(/<\//g) ?? []).length;
      return [q, colon < 0 ? "" : q.slice(0, colon), q.slice(colon + 1), start, end, depth];
    }));
  });

  test("an attribute's marks say whether its raw value holds '$', a ':' after its first character, a space, non-ASCII", () => {
    const doc = `<r a="x$y" b=":lead" c="DATA:x" d="$" e="&#36;&#58;z" f="" g="p:q$" h='1:2' i="1 2" j="é" ` +
      `k="a\u00a0b:c"/>`;
    const got: [string, number, boolean][] = [];
    parseXml(doc, { startElement: (t) => t.attributes.forEach((a) => got.push([a.qname, a.marks, a.verbatim])) });
    expect(got).toEqual([
      ["a", VALUE_HAS_DOLLAR, true],
      ["b", 0, true],
      ["c", VALUE_HAS_INNER_COLON, true],
      ["d", VALUE_HAS_DOLLAR, true],
      // Decoded characters are not in the raw text: a reader of a value that is not verbatim reads the value.
      ["e", 0, false],
      ["f", 0, true],
      ["g", VALUE_HAS_DOLLAR | VALUE_HAS_INNER_COLON, true],
      ["h", VALUE_HAS_INNER_COLON, true],
      ["i", VALUE_HAS_SPACE, true],
      ["j", VALUE_HAS_NON_ASCII, true],
      ["k", VALUE_HAS_NON_ASCII | VALUE_HAS_INNER_COLON, true],
    ]);
  });

  test("whitespace runs (shared) read as before: CRLF and CR normalised to LF, offsets of the raw run", () => {
    const doc = "<a>\r\n\t<b/>\r\t<c/>\n <d> x </d>\r\n\t</a>";
    for (let round = 0; round < 2; round++) {
      const texts: [string, number, number][] = [];
      parseXml(doc, { startElement: () => {}, text: (v, s, e) => texts.push([v, s, e]) });
      expect(texts).toEqual([["\n\t", 3, 6], ["\n\t", 10, 12], ["\n ", 16, 18], [" x ", 21, 24], ["\n\t", 28, 31]]);
    }
  });
});
