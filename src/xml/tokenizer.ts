/**
 * A strict, position-exact, non-validating XML 1.0 + Namespaces tokenizer. It reports events to a
 * visitor and stops at the first well-formedness error, which it returns (it never throws for bad
 * input, and every loop advances, so it runs in linear time).
 *
 * With `recover: true` it does not stop: each error is reported to the visitor and parsing resumes
 * (a duplicate attribute is dropped, a bad reference is kept as text, a broken start tag ends at its
 * `>` with the attributes read so far, an end tag closes the open element it names or is ignored,
 * anything else resumes at the next `<`, and elements still open at the end are closed). The events
 * before the first error are exactly those of strict mode, every start has its end, and the work stays
 * linear: every resumption moves forward and each open element is closed once.
 *
 * Scope: everything in XML 1.0 well-formedness except entities declared in a DOCTYPE's internal
 * subset (the DOCTYPE is skipped, so such entities are reported as undefined) and XML 1.1 rules.
 */
import { runSteps } from "../steps.ts";
import { LineMap } from "./line-map.ts";
import { rawHash, SharedStrings } from "./shared-strings.ts";
import {
  VALUE_HAS_DOLLAR,
  VALUE_HAS_INNER_COLON,
  VALUE_HAS_NON_ASCII,
  VALUE_HAS_SPACE,
  type XmlAttribute,
  type XmlEndTag,
  type XmlError,
  type XmlStartTag,
  type XmlVisitor,
} from "./types.ts";

/** Options of {@link parseXml}. */
export interface ParseOptions {
  /**
   * Resolve namespaces (default true): prefixes must be declared, names are QNames, `uri` is filled.
   * When false, `prefix`/`local` are still split at the first colon, and every `uri` is "".
   */
  readonly namespaces?: boolean;
  /**
   * Keep going after a well-formedness error (default false): report each error to
   * {@link XmlVisitor.error} and resume, so that what comes after an error is still seen.
   */
  readonly recover?: boolean;
}

/** Errors handed to {@link XmlVisitor.error} per document at most (parsing goes on after the last). */
export const MAX_REPORTED_ERRORS = 100;

/** The namespace bound to the `xml` prefix. */
export const XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace";
/** The namespace of `xmlns` and `xmlns:*` attributes. */
export const XMLNS_NAMESPACE = "http://www.w3.org/2000/xmlns/";

const NAME_START = 1;
const NAME_CHAR = 2;
/** Name-character classes for ASCII; other characters go through {@link nonAsciiNameClass}. */
const ASCII_NAME = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_:]/.test(ch)) ASCII_NAME[c] = NAME_START | NAME_CHAR;
  else if (/[0-9.\-]/.test(ch)) ASCII_NAME[c] = NAME_CHAR;
}

/** XML 1.0 (5th edition) NameStartChar / NameChar for a BMP character >= 0x80. */
function nonAsciiNameClass(c: number): number {
  if (
    (c >= 0xc0 && c <= 0xd6) || (c >= 0xd8 && c <= 0xf6) || (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) || (c >= 0x37f && c <= 0x1fff) || c === 0x200c || c === 0x200d ||
    (c >= 0x2070 && c <= 0x218f) || (c >= 0x2c00 && c <= 0x2fef) || (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfdcf) || (c >= 0xfdf0 && c <= 0xfffd)
  ) {
    return NAME_START | NAME_CHAR;
  }
  if (c === 0xb7 || (c >= 0x300 && c <= 0x36f) || c === 0x203f || c === 0x2040) return NAME_CHAR;
  return 0;
}

// Character classes inside text and attribute values (ASCII only; see the scanning loops).
const PLAIN = 0;
const LT = 1;
const AMP = 2;
const RSQB = 3;
const CR = 4;
const WS_CTRL = 5; // tab, LF: allowed, but normalised to a space in attribute values
const BAD = 6;
const QUOTE = 7;
const MARK = 8; // space, `$` and `:` in attribute values: noted in the attribute's marks (see XmlAttribute.marks)
const TEXT_CLASS = new Uint8Array(128);
const VALUE_CLASS = new Uint8Array(128);
for (let c = 0; c < 0x20; c++) {
  TEXT_CLASS[c] = BAD;
  VALUE_CLASS[c] = BAD;
}
TEXT_CLASS[0x09] = PLAIN;
TEXT_CLASS[0x0a] = PLAIN;
TEXT_CLASS[0x0d] = CR;
TEXT_CLASS[0x3c] = LT;
TEXT_CLASS[0x26] = AMP;
TEXT_CLASS[0x5d] = RSQB;
VALUE_CLASS[0x09] = WS_CTRL;
VALUE_CLASS[0x0a] = WS_CTRL;
VALUE_CLASS[0x0d] = CR;
VALUE_CLASS[0x3c] = LT;
VALUE_CLASS[0x26] = AMP;
VALUE_CLASS[0x22] = QUOTE;
VALUE_CLASS[0x27] = QUOTE;
VALUE_CLASS[0x20] = MARK;
VALUE_CLASS[0x24] = MARK;
VALUE_CLASS[0x3a] = MARK;

const PREDEFINED: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", apos: "'", quot: '"' };

const EMPTY_ATTRIBUTES: readonly XmlAttribute[] = Object.freeze([]);

// Element and attribute names repeat millions of times across a mod while a schema set declares a few
// thousand, and so do the whitespace runs between tags. Every name the tokenizer reports, and every short
// whitespace-only text run, comes from one table shared by all documents (see `shared-strings.ts`: one
// seen before costs no allocation). Consumers get the same string object for the same name, whose hash
// the engine keeps, so their map lookups by name do not re-hash; records hold one copy of each. The table
// is bounded: past NAME_LIMIT entries, or for one longer than NAME_MAX_LENGTH, a fresh copy is returned.
const NAME_LIMIT = 8192;
const NAME_MAX_LENGTH = 64;
const names = new SharedStrings(14, NAME_LIMIT, NAME_MAX_LENGTH);

/**
 * Per element name, the attribute names of its last start tag (in any document), in order, up to the
 * first prefixed one: the next start tag of that name is read against them (`parseStartTag`), and a
 * name that is there, followed by a character that ends a name, is taken without scanning or hashing it.
 * A map file's thousands of `<Prop Angle=… Team=… ThingTemplate=…>` repeat one list. A guess only saves
 * work: what is read is checked in place, so the events never depend on this table. Bounded like the
 * name table.
 */
const guesses = new Map<string, string[]>();
const GUESS_LIMIT = 4096;

/** Records `pool[0, n)`'s names as the guess for `qname`'s next start tag (reusing its list). */
function remember(qname: string, list: string[] | undefined, pool: readonly MutableAttribute[], n: number): void {
  if (list === undefined) {
    if (guesses.size >= GUESS_LIMIT) return;
    guesses.set(qname, list = []);
  }
  list.length = 0;
  for (let p = 0; p < n; p++) {
    const q = pool[p].qname;
    if (q.indexOf(":") >= 0) break;
    list.push(q);
  }
}

/** Whitespace runs with CR (from the name table) → their value with line breaks normalised to LF. */
const normalisedIndentation = new Map<string, string>();

/**
 * text[start, end) as the shared copy of that name (see {@link names}).
 * @example internedName("<a b='1'/>", 1, 2) === internedName("<a/>", 1, 2) // true
 */
function internedName(text: string, start: number, end: number): string {
  return names.get(text, start, end);
}

/** {@link internedName} of the name the tokenizer has just scanned, `hash` its folded characters. */
function internedScanned(text: string, start: number, end: number, hash: number): string {
  return names.getHashed(text, start, end, hash);
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

function isXmlChar(cp: number): boolean {
  return (
    cp === 0x09 || cp === 0x0a || cp === 0x0d || (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

function describeChar(c: number): string {
  const hex = "U+" + c.toString(16).toUpperCase().padStart(4, "0");
  return c > 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : hex;
}

/** Marks a parse that has failed; the error itself is kept on the parser. */
const FAIL = -1;
/** Marks content parsing stopped at the end of a step (see {@link XmlTokenizer.steps}); it resumes where it stopped. */
const SUSPEND = -2;

/**
 * Tokenizes `text` (BOM already removed; a leading U+FEFF is skipped anyway) and calls `visitor`
 * for each element, text run, comment and processing instruction. Returns null when the document is
 * well-formed, else the first error with its position. Offsets are UTF-16 indexes into `text`.
 * Text events cover the raw span [start, end) of the text run (for CDATA: the span inside the
 * markers), with entities decoded and line breaks normalised to LF; comments and processing
 * instructions span the whole construct, `<` to `>`. Whitespace outside the root is not reported.
 * @example parseXml("<a x='1'/>", { startElement: (t) => console.log(t.qname, t.attributes[0].value) }) // logs "a 1", returns null
 */
export function parseXml(text: string, visitor: XmlVisitor, options?: ParseOptions): XmlError | null {
  const parser = new XmlTokenizer(text, visitor, options?.namespaces !== false, options?.recover === true);
  runSteps(parser.steps(Infinity));
  return parser.error;
}

/**
 * {@link parseXml} in steps of about `stepChars` characters: the generator yields between two constructs
 * of the root's content once a step has passed that many characters, so a driver can let other work run
 * while one big document is parsed (the MCP server does, in time slices). The visitor sees exactly the
 * events of {@link parseXml}, in the same order; the result is its result.
 * @example runSteps(parseXmlSteps(text, visitor, { recover: true }, 65536)) // same as parseXml(text, visitor, { recover: true })
 */
export function* parseXmlSteps(
  text: string,
  visitor: XmlVisitor,
  options: ParseOptions | undefined,
  stepChars: number,
): Generator<void, XmlError | null, void> {
  const parser = new XmlTokenizer(text, visitor, options?.namespaces !== false, options?.recover === true);
  yield* parser.steps(Math.max(1, stepChars));
  return parser.error;
}

/**
 * An attribute while its start tag is parsed (its uri is filled in by the namespace pass). Each
 * tokenizer keeps these objects and fills them in again for every start tag (an attribute is valid only
 * while the visitor's `startElement` runs; see {@link XmlVisitor.startElement}): a big file has millions
 * of attributes, and one object each was a third of the tokenizer's time. A verbatim value (see
 * {@link XmlAttribute.verbatim}) is sliced out of the document only when it is read: most values of a big
 * file (coordinates, flags) are looked at in place by the extractor and never read.
 */
class MutableAttribute implements XmlAttribute {
  qname = "";
  prefix = "";
  local = "";
  uri = "";
  nameStart = 0;
  valueStart = 0;
  valueEnd = 0;
  verbatim = true;
  marks = 0;
  private held: string | null = null;

  constructor(private readonly text: string) {}

  /** This object as the attribute of the tag being parsed; `decoded` is its value when not verbatim. */
  fill(
    qname: string,
    prefix: string,
    local: string,
    nameStart: number,
    valueStart: number,
    valueEnd: number,
    decoded: string | null,
    marks: number,
  ): void {
    this.qname = qname;
    this.prefix = prefix;
    this.local = local;
    this.uri = "";
    this.nameStart = nameStart;
    this.valueStart = valueStart;
    this.valueEnd = valueEnd;
    this.verbatim = decoded === null;
    this.marks = marks;
    this.held = decoded;
  }

  get value(): string {
    return this.held ??= this.text.slice(this.valueStart, this.valueEnd);
  }
}

/** An element whose end tag has not been read yet: what its end needs of its start tag. */
interface OpenElement {
  readonly qname: string;
  readonly local: string;
  readonly uri: string;
  readonly start: number;
  readonly depth: number;
  /** Length of the namespace binding stack before this element's declarations. */
  readonly bindingMark: number;
}

/** The start tag handed to the visitor, filled in again for each (see {@link XmlVisitor.startElement}). */
type MutableStartTag = { -readonly [K in keyof XmlStartTag]: XmlStartTag[K] };

/** The end tag handed to the visitor, filled in again for each. */
type MutableEndTag = { -readonly [K in keyof XmlEndTag]: XmlEndTag[K] };

class XmlTokenizer {
  error: XmlError | null = null;
  private readonly text: string;
  private readonly len: number;
  private readonly visitor: XmlVisitor;
  private readonly ns: boolean;
  private readonly recover: boolean;
  private readonly wantText: boolean;
  private readonly wantEnd: boolean;
  private readonly open: OpenElement[] = [];
  /** Prefixes declared by the open elements, in declaration order ("" = default namespace). */
  private readonly boundPrefixes: string[] = [];
  /** Per prefix, the stack of URIs it is bound to (innermost last). */
  private readonly scopes = new Map<string, string[]>();
  /** `scopes.get("")` once the default namespace has been declared (the same array from then on). */
  private defaultUris: string[] | undefined = undefined;
  /** Set by {@link scanName}: index of the first colon in the last name, or -1, and the colon count. */
  private colon = -1;
  private colons = 0;
  /** The characters of the name {@link scanName} last read, folded (see `rawHash`). */
  private nameHash = 0;
  /** Per length (up to NAME_MAX_LENGTH), the last whitespace-only text run of that length. */
  private readonly indentByLength: (string | undefined)[] = new Array(NAME_MAX_LENGTH + 1).fill(undefined);
  /** Per depth, the name (without a colon) of the last element started there: the next one's guess. */
  private readonly siblingNames: string[] = [];
  /** The attribute objects filled in for each start tag (see {@link MutableAttribute}). */
  private readonly attributePool: MutableAttribute[] = [];
  private readonly attributeView: MutableAttribute[] = [];
  private readonly startTag: MutableStartTag = {
    qname: "",
    prefix: "",
    local: "",
    uri: "",
    attributes: EMPTY_ATTRIBUTES,
    start: 0,
    end: 0,
    selfClosing: false,
    depth: 0,
  };
  private readonly endTag: MutableEndTag = { qname: "", local: "", uri: "", start: 0, end: 0, depth: 0 };
  /** Set by {@link parseReference}: the decoded value of the last reference. */
  private refValue = "";
  /** One line map for every error position (built on the first error). */
  private lines: LineMap | null = null;
  /** Recovery: offsets already reported (a reference is re-read when its value is decoded). */
  private readonly reported = new Set<number>();
  /** Recovery: where to resume after the last error that abandoned a construct. */
  private resumeAt = 0;
  /**
   * Recovery: open elements per qname, so an end tag can tell whether it closes an ancestor. Counted from
   * the open elements at the first end tag that does not match (a well-formed file never has one: two map
   * updates per element were a tenth of the tokenizer's time), kept up to date from then on.
   */
  private openNames: Map<string, number> | null = null;
  /** Recovery: set by {@link abandonTag}: the abandoned start tag ended with `/>`. */
  private abandonedSelfClosing = false;
  /** A root element has been started (a later one is a second root). */
  private rootSeen = false;
  /** Stepped parse: content parsing stops at the first construct starting at or after this offset. */
  private pauseAt = Infinity;
  /** Where content parsing stopped when it returned {@link SUSPEND}. */
  private suspendedAt = 0;

  constructor(text: string, visitor: XmlVisitor, namespaces: boolean, recover: boolean) {
    this.text = text;
    this.len = text.length;
    this.visitor = visitor;
    this.ns = namespaces;
    this.recover = recover;
    this.wantText = typeof visitor.text === "function";
    this.wantEnd = typeof visitor.endElement === "function";
  }

  /**
   * The parse, yielding between two constructs of the root's content after each `stepChars` characters
   * (the prolog, tags and text runs are never split). Content parsing returns {@link SUSPEND} at the
   * step's end and is called again from where it stopped: its state is the offset and the open elements,
   * so the events are those of one uninterrupted run.
   */
  *steps(stepChars: number): Generator<void, void, void> {
    this.pauseAt = stepChars;
    const text = this.text;
    let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (text.startsWith("<?xml", i) && (isWs(text.charCodeAt(i + 5)) || text.startsWith("?>", i + 5))) {
      const start = i;
      i = this.parseXmlDeclaration(i);
      if (i === FAIL) {
        if (!this.recover) return;
        const close = text.indexOf("?>", start + 5);
        i = close < 0 ? this.resumeAt : close + 2;
      }
    }
    i = this.parseMisc(i, false);
    if (i === FAIL) return;
    if (i >= this.len) {
      this.fail(this.len, "document has no root element");
      return;
    }
    for (;;) {
      i = this.parseStartTag(i);
      if (i === FAIL) {
        if (!this.recover) return;
        i = this.resumeAt;
      } else if (this.open.length > 0) {
        i = this.parseContent(i);
        while (i === SUSPEND) {
          yield;
          i = this.suspendedAt;
          this.pauseAt = i + stepChars;
          i = this.parseContent(i);
        }
        if (i === FAIL) return;
      }
      i = this.parseMisc(i, this.rootSeen);
      // Strict mode: FAIL or the end. Recovery: the end, or the `<` of one more element to read.
      if (i === FAIL || i >= this.len) return;
    }
  }

  /**
   * Records an error at `offset` and returns FAIL. The first error is the parse's answer; in recovery
   * every error goes to the visitor (once per offset) and parsing resumes by default at the next `<`.
   */
  private fail(offset: number, message: string): number {
    if (this.recover) {
      this.resumeAt = this.nextLt(offset + 1);
      if (this.reported.has(offset)) return FAIL;
      this.reported.add(offset);
    } else if (this.error !== null) return FAIL;
    const pos = this.lineMap().position(offset);
    const e: XmlError = { message, offset, line: pos.line, column: pos.column };
    this.error ??= e;
    if (this.recover && this.reported.size <= MAX_REPORTED_ERRORS) this.visitor.error?.(e);
    return FAIL;
  }

  /** Records a start-tag error (see {@link fail}) and returns true: the tag is broken. */
  private broke(offset: number, message: string): boolean {
    this.fail(offset, message);
    return true;
  }

  /** Like {@link fail}, resuming (in recovery) at `resume` instead of the next `<`. */
  private failAt(offset: number, message: string, resume: number): number {
    this.fail(offset, message);
    this.resumeAt = Math.max(resume, offset + 1);
    return FAIL;
  }

  private lineMap(): LineMap {
    return (this.lines ??= new LineMap(this.text));
  }

  /** The offset of the next `<` at or after `from`, or the end of the text. */
  private nextLt(from: number): number {
    const k = this.text.indexOf("<", from);
    return k < 0 ? this.len : k;
  }

  private where(offset: number): string {
    const pos = this.lineMap().position(offset);
    return `line ${pos.line}, column ${pos.column}`;
  }

  /**
   * Prolog (`afterRoot` false) or epilog: whitespace, comments, PIs and (prolog only) one DOCTYPE.
   * Returns the offset of the root's `<` in the prolog, the end of text in the epilog, or FAIL. In
   * recovery it never fails: errors are skipped, and a second root element's `<` is returned.
   */
  private parseMisc(from: number, afterRoot: boolean): number {
    const text = this.text;
    const len = this.len;
    let i = from;
    let sawDoctype = false;
    for (;;) {
      while (i < len && isWs(text.charCodeAt(i))) i++;
      if (i >= len) return i;
      const c = text.charCodeAt(i);
      if (c !== 0x3c) {
        i = this.fail(i, afterRoot ? "text after the root element" : "text before the root element");
      } else {
        const c1 = text.charCodeAt(i + 1);
        if (c1 === 0x3f) {
          i = this.parsePI(i);
        } else if (c1 === 0x21) {
          if (text.startsWith("<!--", i)) i = this.parseComment(i);
          else if (text.startsWith("<!DOCTYPE", i)) {
            if (afterRoot) i = this.fail(i, "DOCTYPE declaration after the root element");
            else if (sawDoctype) i = this.fail(i, "second DOCTYPE declaration");
            else {
              sawDoctype = true;
              i = this.parseDoctype(i);
            }
          } else if (text.startsWith("<![CDATA[", i)) {
            i = this.fail(i, "CDATA section outside the root element");
          } else i = this.fail(i, "'<!' must start a comment, CDATA section or DOCTYPE declaration");
        } else if (c1 === 0x2f) {
          i = this.fail(
            i,
            afterRoot ? "end tag after the root element was closed" : "end tag before the root element",
          );
        } else {
          if (!afterRoot) return i;
          const nameEnd = this.scanName(i + 1);
          if (nameEnd === i + 1) i = this.fail(i, "unexpected '<' after the root element");
          else {
            this.fail(
              i,
              `second root element <${text.slice(i + 1, nameEnd)}> (a document has exactly one root element)`,
            );
            if (this.recover) return i;
            return FAIL;
          }
        }
      }
      if (i === FAIL) {
        if (!this.recover) return FAIL;
        i = this.resumeAt;
      }
    }
  }

  /**
   * The content of the root element, from after its start tag until its end tag closes it; or, in a
   * stepped parse, until the first construct at or after {@link pauseAt} ({@link SUSPEND}).
   */
  private parseContent(from: number): number {
    const text = this.text;
    const len = this.len;
    let i = from;
    for (;;) {
      if (i >= this.pauseAt) {
        this.suspendedAt = i;
        return SUSPEND;
      }
      if (text.charCodeAt(i) !== 0x3c) {
        i = this.scanText(i);
        if (i === FAIL) return FAIL;
        if (i >= len) {
          const top = this.open[this.open.length - 1];
          this.fail(len, `end of file reached, but element <${top.qname}> (${this.where(top.start)}) is not closed`);
          if (!this.recover) return FAIL;
          this.closeOpen(0, len);
          return len;
        }
      }
      const c1 = text.charCodeAt(i + 1);
      if (c1 === 0x2f) {
        i = this.parseEndTag(i);
      } else if (c1 === 0x21) {
        if (text.startsWith("<!--", i)) i = this.parseComment(i);
        else if (text.startsWith("<![CDATA[", i)) i = this.parseCdata(i);
        else if (text.startsWith("<!DOCTYPE", i)) i = this.fail(i, "DOCTYPE declaration inside an element");
        else i = this.fail(i, "'<!' must start a comment or CDATA section");
      } else if (c1 === 0x3f) {
        i = this.parsePI(i);
      } else {
        i = this.parseStartTag(i);
      }
      if (i === FAIL) {
        if (!this.recover) return FAIL;
        i = this.resumeAt;
      }
      if (this.open.length === 0) return i;
    }
  }

  /** Recovery: ends the open elements above depth `keep` (innermost first), each at `at`. */
  private closeOpen(keep: number, at: number): void {
    while (this.open.length > keep) {
      const top = this.open.pop()!;
      this.emitEnd(top, at, at);
    }
  }

  /** Reports the end of an open element that has just been popped, and ends its namespace scope. */
  private emitEnd(top: OpenElement, start: number, end: number): void {
    const openNames = this.openNames;
    if (openNames !== null) {
      const n = openNames.get(top.qname)! - 1;
      if (n === 0) openNames.delete(top.qname);
      else openNames.set(top.qname, n);
    }
    if (this.wantEnd) this.emitEndTag(top.qname, top.local, top.uri, start, end, top.depth);
    if (this.boundPrefixes.length > top.bindingMark) this.unbind(top.bindingMark);
  }

  /** The visitor's `endElement`, with the one end tag object filled in. */
  private emitEndTag(qname: string, local: string, uri: string, start: number, end: number, depth: number): void {
    const tag = this.endTag;
    tag.qname = qname;
    tag.local = local;
    tag.uri = uri;
    tag.start = start;
    tag.end = end;
    tag.depth = depth;
    this.visitor.endElement!(tag);
  }

  /**
   * Scans a name from `i` (XML Name production); returns its end (== i when there is none), records
   * colon position/count and folds the name's characters into {@link nameHash}.
   */
  private scanName(i: number): number {
    const text = this.text;
    const len = this.len;
    this.colon = -1;
    this.colons = 0;
    this.nameHash = 0;
    if (i >= len) return i;
    let c = text.charCodeAt(i);
    let j = i;
    let h = 0;
    if (c < 0x80) {
      if ((ASCII_NAME[c] & NAME_START) === 0) return i;
      if (c === 0x3a) {
        this.colon = j;
        this.colons = 1;
      }
      h = c;
      j++;
    } else {
      const w = this.nonAsciiNameWidth(j, NAME_START);
      if (w === 0) return i;
      h = rawHash(text, j, j + w);
      j += w;
    }
    for (;;) {
      if (j >= len) break;
      c = text.charCodeAt(j);
      if (c < 0x80) {
        if (ASCII_NAME[c] === 0) break;
        if (c === 0x3a) {
          if (this.colon < 0) this.colon = j;
          this.colons++;
        }
        h = (Math.imul(h, 31) + c) | 0;
        j++;
      } else {
        const w = this.nonAsciiNameWidth(j, NAME_CHAR);
        if (w === 0) break;
        for (let k = j; k < j + w; k++) h = (Math.imul(h, 31) + text.charCodeAt(k)) | 0;
        j += w;
      }
    }
    this.nameHash = h;
    return j;
  }

  /** Width (0, 1 or 2 code units) of the non-ASCII name character at `j` having class `want`. */
  private nonAsciiNameWidth(j: number, want: number): number {
    const c = this.text.charCodeAt(j);
    if (c >= 0xd800 && c <= 0xdbff) {
      // Supplementary characters U+10000–U+EFFFF are name characters (start and inner).
      const d = this.text.charCodeAt(j + 1);
      return c <= 0xdb7f && d >= 0xdc00 && d <= 0xdfff ? 2 : 0;
    }
    return (nonAsciiNameClass(c) & want) !== 0 ? 1 : 0;
  }

  /** With namespaces on, a name must be a QName: at most one colon, with an NCName on each side. */
  private checkQName(start: number, end: number, what: string): boolean {
    if (!this.ns || this.colons === 0) return true;
    const colon = this.colon;
    if (this.colons > 1 || colon === start || colon === end - 1 || !this.isNameStartAt(colon + 1)) {
      this.fail(
        start,
        `invalid qualified name '${
          this.text.slice(start, end)
        }' for ${what} (a name has at most one ':', between two names)`,
      );
      if (!this.recover) return false;
      // Recovery: the name is read whole, without a prefix.
      this.colon = -1;
      this.colons = 0;
    }
    return true;
  }

  private isNameStartAt(j: number): boolean {
    const c = this.text.charCodeAt(j);
    if (c < 0x80) return (ASCII_NAME[c] & NAME_START) !== 0 && c !== 0x3a;
    return this.nonAsciiNameWidth(j, NAME_START) > 0;
  }

  /** Reports an invalid character at `j`; handles surrogate pairs. Returns FAIL. */
  private failChar(j: number): number {
    const c = this.text.charCodeAt(j);
    if (j >= this.len) return this.fail(j, "unexpected end of file");
    return this.fail(j, `invalid XML character ${describeChar(c)}`);
  }

  /** Checks that text[from, to) holds only XML characters; returns true, or fails at the first bad one. */
  private checkChars(from: number, to: number): boolean {
    const text = this.text;
    for (let j = from; j < to; j++) {
      const c = text.charCodeAt(j);
      if (c >= 0x20 ? c < 0xd800 : c === 0x0a || c === 0x09 || c === 0x0d) continue;
      const w = this.wideCharWidth(j);
      if (w === 0) {
        this.failChar(j);
        if (!this.recover) return false;
        continue; // recovery: the character is reported and kept
      }
      j += w - 1;
    }
    return true;
  }

  /** For a code unit >= 0xD800 at `j`: 1 or 2 when it is (part of) a valid XML character, else 0. */
  private wideCharWidth(j: number): number {
    const c = this.text.charCodeAt(j);
    if (c < 0xd800) return 1;
    if (c <= 0xdbff) {
      const d = this.text.charCodeAt(j + 1);
      return d >= 0xdc00 && d <= 0xdfff ? 2 : 0;
    }
    if (c <= 0xdfff) return 0;
    return c === 0xfffe || c === 0xffff ? 0 : 1;
  }

  private parseXmlDeclaration(i: number): number {
    const text = this.text;
    let j = i + 5;
    const bad = (at: number, why: string): number => this.fail(at, `invalid XML declaration: ${why}`);
    const names = ["version", "encoding", "standalone"];
    let expected = 0;
    for (;;) {
      const wsStart = j;
      while (isWs(text.charCodeAt(j))) j++;
      if (text.startsWith("?>", j)) {
        if (expected === 0) return bad(j, "'version' is required");
        return j + 2;
      }
      if (j >= this.len) return this.fail(i, "XML declaration is not closed (missing '?>')");
      const nameEnd = this.scanName(j);
      if (nameEnd === j) return bad(j, `unexpected ${describeChar(text.charCodeAt(j))}`);
      const name = text.slice(j, nameEnd);
      if (j === wsStart) return bad(j, `whitespace is required before '${name}'`);
      const index = names.indexOf(name, expected);
      if (index < 0) {
        const why = names.includes(name)
          ? `'${name}' is out of order (the order is version, encoding, standalone)`
          : `unknown pseudo-attribute '${name}'`;
        return bad(j, why);
      }
      if (expected === 0 && index !== 0) return bad(j, "'version' must come first");
      j = nameEnd;
      while (isWs(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) !== 0x3d) return bad(j, `expected '=' after '${name}'`);
      j++;
      while (isWs(text.charCodeAt(j))) j++;
      const q = text.charCodeAt(j);
      if (q !== 0x22 && q !== 0x27) return bad(j, `the value of '${name}' must be quoted`);
      const close = text.indexOf(q === 0x22 ? '"' : "'", j + 1);
      const lineEnd = text.indexOf("?>", j + 1);
      if (close < 0 || (lineEnd >= 0 && lineEnd < close)) return bad(j, `the value of '${name}' is not closed`);
      const value = text.slice(j + 1, close);
      const ok = index === 0
        ? /^1\.[0-9]+$/.test(value)
        : index === 1
        ? /^[A-Za-z][A-Za-z0-9._-]*$/.test(value)
        : value === "yes" || value === "no";
      if (!ok) return bad(j + 1, `invalid ${name} '${value}'`);
      expected = index + 1;
      j = close + 1;
    }
  }

  /** A processing instruction; in recovery a broken one is skipped to its `?>` (or to the end). */
  private parsePI(i: number): number {
    const r = this.readPI(i);
    if (r === FAIL && this.recover) {
      const close = this.text.indexOf("?>", i + 2);
      this.resumeAt = close < 0 ? this.len : close + 2;
    }
    return r;
  }

  private readPI(i: number): number {
    const text = this.text;
    const targetEnd = this.scanName(i + 2);
    if (targetEnd === i + 2) return this.fail(i, "processing instruction must start with a target name");
    const target = text.slice(i + 2, targetEnd);
    if (target.length === 3 && target.toLowerCase() === "xml") {
      return this.fail(
        i,
        target === "xml"
          ? "XML declaration is only allowed at the very start of the document"
          : `processing instruction target '${target}' is reserved`,
      );
    }
    if (this.ns && this.colons > 0) {
      return this.fail(i + 2, `processing instruction target '${target}' must not contain ':'`);
    }
    let bodyStart = targetEnd;
    let end: number;
    if (text.startsWith("?>", targetEnd)) end = targetEnd;
    else {
      if (!isWs(text.charCodeAt(targetEnd))) {
        if (targetEnd >= this.len) return this.fail(i, "processing instruction is not closed (missing '?>')");
        return this.fail(
          targetEnd,
          `invalid character ${
            describeChar(text.charCodeAt(targetEnd))
          } after processing instruction target '${target}'`,
        );
      }
      while (isWs(text.charCodeAt(bodyStart))) bodyStart++;
      end = text.indexOf("?>", bodyStart);
      if (end < 0) return this.fail(i, "processing instruction is not closed (missing '?>')");
      if (!this.checkChars(bodyStart, end)) return FAIL;
    }
    this.visitor.processingInstruction?.(target, text.slice(bodyStart, end), i, end + 2);
    return end + 2;
  }

  private parseComment(i: number): number {
    const text = this.text;
    const end = text.indexOf("--", i + 4);
    if (end < 0) return this.failAt(i, "comment is not closed (missing '-->')", this.len);
    if (text.charCodeAt(end + 2) !== 0x3e) {
      // Recovery: the comment ends at the next `-->` (the `--` was a typo inside it), else at the end.
      const close = this.recover ? text.indexOf("-->", end) : -1;
      return this.failAt(end, "'--' is not allowed inside a comment", close < 0 ? this.len : close + 3);
    }
    if (!this.checkChars(i + 4, end)) return FAIL;
    this.visitor.comment?.(text.slice(i + 4, end), i, end + 3);
    return end + 3;
  }

  private parseCdata(i: number): number {
    const text = this.text;
    const start = i + 9;
    const end = text.indexOf("]]>", start);
    if (end < 0) return this.failAt(i, "CDATA section is not closed (missing ']]>')", this.len);
    if (!this.checkChars(start, end)) return FAIL;
    if (this.wantText) {
      let value = text.slice(start, end);
      if (value.indexOf("\r") >= 0) value = value.replace(/\r\n?/g, "\n");
      this.visitor.text!(value, start, end);
    }
    return end + 3;
  }

  /**
   * Skips `<!DOCTYPE name …>`, including an internal subset in `[…]` (quotes, comments and PIs inside
   * it are honoured so that a `>` or `]` in them does not end it). Declarations are not interpreted.
   */
  private parseDoctype(i: number): number {
    const r = this.readDoctype(i);
    if (r === FAIL && this.recover && this.resumeAt < this.len) {
      // Recovery: a broken DOCTYPE is skipped to its first `>`.
      const close = this.text.indexOf(">", i);
      this.resumeAt = close < 0 ? this.len : close + 1;
    }
    return r;
  }

  private readDoctype(i: number): number {
    const text = this.text;
    const len = this.len;
    let j = i + 9;
    if (!isWs(text.charCodeAt(j))) return this.fail(j, "expected whitespace after '<!DOCTYPE'");
    while (isWs(text.charCodeAt(j))) j++;
    const nameEnd = this.scanName(j);
    if (nameEnd === j) return this.fail(j, "DOCTYPE declaration must name the root element");
    j = nameEnd;
    let inSubset = false;
    while (j < len) {
      const c = text.charCodeAt(j);
      if (c === 0x22 || c === 0x27) {
        const close = text.indexOf(c === 0x22 ? '"' : "'", j + 1);
        if (close < 0) break;
        j = close + 1;
      } else if (inSubset) {
        if (c === 0x5d) {
          inSubset = false;
          j++;
        } else if (text.startsWith("<!--", j)) {
          const close = text.indexOf("--", j + 4);
          if (close < 0) break;
          if (text.charCodeAt(close + 2) !== 0x3e) return this.fail(close, "'--' is not allowed inside a comment");
          j = close + 3;
        } else if (text.startsWith("<?", j)) {
          const close = text.indexOf("?>", j + 2);
          if (close < 0) break;
          j = close + 2;
        } else j++;
      } else if (c === 0x5b) {
        inSubset = true;
        j++;
      } else if (c === 0x3e) {
        return this.checkChars(i, j) ? j + 1 : FAIL;
      } else j++;
    }
    return this.failAt(i, "DOCTYPE declaration is not closed (missing '>')", len);
  }

  /**
   * Parses `&…;` at `j`; on success stores the replacement text in {@link refValue} and returns the
   * offset after `;`.
   */
  private parseReference(j: number): number {
    const text = this.text;
    if (text.charCodeAt(j + 1) === 0x23) {
      const hex = text.charCodeAt(j + 2) === 0x78;
      let k = hex ? j + 3 : j + 2;
      const digitsStart = k;
      let cp = 0;
      for (;;) {
        const c = text.charCodeAt(k);
        let d: number;
        if (c >= 0x30 && c <= 0x39) d = c - 0x30;
        else if (hex && c >= 0x61 && c <= 0x66) d = c - 0x57;
        else if (hex && c >= 0x41 && c <= 0x46) d = c - 0x37;
        else break;
        cp = cp > 0x10ffff ? cp : cp * (hex ? 16 : 10) + d;
        k++;
      }
      if (k === digitsStart || text.charCodeAt(k) !== 0x3b) {
        const shown = text.slice(j, Math.min(k + 1, j + 12));
        return this.fail(j, `malformed character reference '${shown}' (expected '&#digits;' or '&#xhex;')`);
      }
      if (!isXmlChar(cp)) {
        return this.fail(j, `character reference '${text.slice(j, k + 1)}' is not an allowed XML character`);
      }
      this.refValue = String.fromCodePoint(cp);
      return k + 1;
    }
    const nameEnd = this.scanName(j + 1);
    if (nameEnd === j + 1) {
      return this.fail(j, "'&' must start an entity or character reference (write '&amp;' for a literal '&')");
    }
    const name = text.slice(j + 1, nameEnd);
    if (text.charCodeAt(nameEnd) !== 0x3b) return this.fail(j, `entity reference '&${name}' must end with ';'`);
    const value = PREDEFINED[name];
    if (value === undefined) return this.fail(j, `undefined entity '&${name};'`);
    this.refValue = value;
    return nameEnd + 1;
  }

  /**
   * Character data from `i` up to the next `<` (or the end): validates it, reports it, and returns the
   * offset of the `<` (== length at the end of the text).
   */
  private scanText(i: number): number {
    const text = this.text;
    const len = this.len;
    let j = i;
    let special = false;
    while (j < len) {
      const c = text.charCodeAt(j);
      if (c < 0x80) {
        const k = TEXT_CLASS[c];
        if (k === PLAIN) {
          j++;
          continue;
        }
        if (k === LT) break;
        if (k === AMP) {
          const at = j;
          j = this.parseReference(j);
          if (j === FAIL) {
            if (!this.recover) return FAIL;
            j = at + 1; // recovery: a broken reference stays as written
          }
          special = true;
        } else if (k === RSQB) {
          if (text.charCodeAt(j + 1) === 0x5d && text.charCodeAt(j + 2) === 0x3e) {
            this.fail(j, "']]>' is not allowed in text (write ']]&gt;')");
            if (!this.recover) return FAIL;
          }
          j++;
        } else if (k === CR) {
          special = true;
          j++;
        } else {
          this.failChar(j);
          if (!this.recover) return FAIL;
          j++;
        }
      } else if (c < 0xd800) j++;
      else {
        const w = this.wideCharWidth(j);
        if (w === 0) {
          this.failChar(j);
          if (!this.recover) return FAIL;
          j++;
        } else j += w;
      }
    }
    if (this.wantText && j > i) {
      const indent = j - i <= NAME_MAX_LENGTH ? this.indentation(i, j, special) : null;
      this.visitor.text!(indent ?? (special ? this.decodeRun(i, j, false) : text.slice(i, j)), i, j);
    }
    return j;
  }

  /**
   * The value of a short text run that is only whitespace (the indentation between tags, several per
   * element), shared through the name table instead of a new string per run; null for any other run.
   * A run with CR is normalised (CRLF and CR become LF) once per distinct run.
   */
  private indentation(i: number, j: number, special: boolean): string | null {
    const text = this.text;
    // The last whitespace run of this length: a file indents the same few ways over and over.
    const last = this.indentByLength[j - i];
    let raw: string;
    if (last !== undefined && text.startsWith(last, i)) raw = last;
    else {
      for (let k = i; k < j; k++) {
        const c = text.charCodeAt(k);
        if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) return null;
      }
      raw = internedName(text, i, j);
      this.indentByLength[j - i] = raw;
    }
    if (!special) return raw;
    let value = normalisedIndentation.get(raw);
    if (value === undefined) {
      value = raw.replace(/\r\n?/g, "\n");
      if (normalisedIndentation.size < NAME_LIMIT) normalisedIndentation.set(raw, value);
    }
    return value;
  }

  /**
   * Decodes an already validated run (in recovery: a run whose broken references stay as written): references replaced, CRLF/CR → LF; in attribute values
   * (`attribute` true) tab/CR/LF (and CRLF as a whole) become one space each.
   */
  private decodeRun(from: number, to: number, attribute: boolean): string {
    const text = this.text;
    let out = "";
    let seg = from;
    for (let j = from; j < to;) {
      const c = text.charCodeAt(j);
      if (c === 0x26) {
        out += text.slice(seg, j);
        const at = j;
        j = this.parseReference(j);
        if (j === FAIL) {
          // Only in recovery (strict mode never decodes a run it rejected): the `&` stays as written.
          out += "&";
          j = at + 1;
        } else out += this.refValue;
        seg = j;
      } else if (c === 0x0d) {
        out += text.slice(seg, j) + (attribute ? " " : "\n");
        j += text.charCodeAt(j + 1) === 0x0a ? 2 : 1;
        seg = j;
      } else if (attribute && (c === 0x0a || c === 0x09)) {
        out += text.slice(seg, j) + " ";
        j++;
        seg = j;
      } else j++;
    }
    return out + text.slice(seg, to);
  }

  private parseStartTag(i: number): number {
    const text = this.text;
    const len = this.len;
    const nameStart = i + 1;
    // The name of the last element started at this depth (a sibling, or the same element's last
    // occurrence): when it is there, followed by a character that ends a name, it is taken unscanned.
    // (This test is written out here, for attribute names and for end tags: as a shared function it
    // measured 2–5 % slower, the start-tag loop being too large for the engine to inline it.)
    const depthNow = this.open.length;
    const sibling = depthNow < this.siblingNames.length ? this.siblingNames[depthNow] : "";
    let qname: string;
    let nameEnd: number;
    let elementColon = -1;
    const after = sibling === "" ? 0 : text.charCodeAt(nameStart + sibling.length);
    if (sibling !== "" && after < 0x80 && ASCII_NAME[after] === 0 && text.startsWith(sibling, nameStart)) {
      qname = sibling;
      nameEnd = nameStart + sibling.length;
    } else {
      nameEnd = this.scanName(nameStart);
      if (nameEnd === nameStart) {
        if (nameStart >= len) return this.fail(i, "unexpected end of file after '<'");
        return this.fail(
          nameStart,
          `invalid element name: '<' must be followed by a name, found ${describeChar(text.charCodeAt(nameStart))}`,
        );
      }
      const elementHash = this.nameHash;
      if (!this.checkQName(nameStart, nameEnd, "an element")) return FAIL;
      qname = internedScanned(text, nameStart, nameEnd, elementHash);
      elementColon = this.colon;
      if (elementColon < 0 && depthNow < 256) {
        while (this.siblingNames.length <= depthNow) this.siblingNames.push("");
        this.siblingNames[depthNow] = qname;
      }
    }
    // The attributes read so far are pool[0, n) (see MutableAttribute: the objects are reused).
    const pool = this.attributePool;
    let n = 0;
    let seen: Set<string> | null = null;
    // Set when an attribute is prefixed or declares a namespace: only then is the namespace pass needed.
    let nsWork = false;
    let j = nameEnd;
    let selfClosing = false;
    // Each `broken` below is a start-tag error: strict mode stops; recovery ends the tag at its `>` (or
    // before the next `<`) with the attributes read so far.
    let broken = false;
    const predicted = guesses.get(qname);
    let missed = false;
    for (;;) {
      let c = text.charCodeAt(j);
      const wsBefore = isWs(c);
      while (isWs(c)) c = text.charCodeAt(++j);
      if (c === 0x3e) {
        j++;
        break;
      }
      if (c === 0x2f) {
        if (text.charCodeAt(j + 1) === 0x3e) {
          j += 2;
          selfClosing = true;
          break;
        }
        if (j + 1 >= len) broken = this.broke(i, `start tag <${qname}> is not closed (end of file reached)`);
        else broken = this.broke(j, `expected '>' after '/' in start tag <${qname}>`);
        break;
      }
      if (j >= len) {
        broken = this.broke(i, `start tag <${qname}> is not closed (end of file reached)`);
        break;
      }
      const an = j;
      // The name this element's previous start tag had at this place: read in place, no scan, no hash.
      const guess = predicted !== undefined && n < predicted.length ? predicted[n] : null;
      let ae: number;
      let guessed = false;
      if (guess !== null && text.startsWith(guess, an)) {
        const after = text.charCodeAt(an + guess.length);
        guessed = after < 0x80 && ASCII_NAME[after] === 0;
      }
      if (guessed) {
        ae = an + guess!.length;
        this.colon = -1;
        this.colons = 0;
      } else {
        ae = this.scanName(an);
        missed = true;
      }
      if (ae === an) {
        if (c === 0x3c) broken = this.broke(j, `'<' inside start tag <${qname}> (is the tag missing its '>'?)`);
        else broken = this.broke(j, `invalid character ${describeChar(c)} in start tag <${qname}>`);
        break;
      }
      if (!wsBefore) {
        broken = this.broke(an, `missing whitespace before attribute '${text.slice(an, ae)}' in start tag <${qname}>`);
        break;
      }
      const attrHash = this.nameHash;
      if (!guessed && !this.checkQName(an, ae, "an attribute")) return FAIL;
      const attrColon = this.colon;
      j = ae;
      while (isWs(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) !== 0x3d) {
        if (j >= len) broken = this.broke(i, `start tag <${qname}> is not closed (end of file reached)`);
        else {broken = this.broke(
            an,
            `attribute '${text.slice(an, ae)}' has no value (expected '=' and a quoted value)`,
          );}
        break;
      }
      j++;
      while (isWs(text.charCodeAt(j))) j++;
      const q = text.charCodeAt(j);
      if (q !== 0x22 && q !== 0x27) {
        if (j >= len) broken = this.broke(i, `start tag <${qname}> is not closed (end of file reached)`);
        else broken = this.broke(j, `the value of attribute '${text.slice(an, ae)}' must be quoted`);
        break;
      }
      const vs = j + 1;
      let k = vs;
      let special = false;
      let marks = 0;
      for (;;) {
        if (k >= len) {
          broken = this.broke(j, `the value of attribute '${text.slice(an, ae)}' is not closed (end of file reached)`);
          break;
        }
        const v = text.charCodeAt(k);
        if (v < 0x80) {
          const cls = VALUE_CLASS[v];
          if (cls === PLAIN) {
            k++;
            continue;
          }
          if (cls === QUOTE) {
            if (v === q) break;
            k++;
          } else if (cls === AMP) {
            const at = k;
            k = this.parseReference(k);
            if (k === FAIL) {
              if (!this.recover) return FAIL;
              k = at + 1; // recovery: a broken reference stays as written
            }
            special = true;
          } else if (cls === LT) {
            broken = this.broke(k, `'<' is not allowed in an attribute value (write '&lt;')`);
            break;
          } else if (cls === MARK) {
            marks |= v === 0x20 ? VALUE_HAS_SPACE : v === 0x24 ? VALUE_HAS_DOLLAR : k > vs ? VALUE_HAS_INNER_COLON : 0;
            k++;
          } else if (cls === BAD) {
            // Kept in recovery: 0x0B and 0x0C are spaces to a reader splitting the value.
            marks |= VALUE_HAS_SPACE;
            this.failChar(k);
            if (!this.recover) return FAIL;
            k++;
          } else {
            special = true;
            k++;
          }
        } else {
          marks |= VALUE_HAS_NON_ASCII;
          if (v < 0xd800) k++;
          else {
            const w = this.wideCharWidth(k);
            if (w === 0) {
              this.failChar(k);
              if (!this.recover) return FAIL;
              k++;
            } else k += w;
          }
        }
      }
      if (broken) {
        j = k;
        break;
      }
      j = k + 1;
      const aq = guessed ? guess! : internedScanned(text, an, ae, attrHash);
      let ap = "";
      let al = aq;
      if (attrColon >= 0) {
        ap = internedName(text, an, attrColon);
        al = internedName(text, attrColon + 1, ae);
      }
      // Every name so far guessed: they are the guess list's first names, which are distinct.
      if (n > 0 && (missed || !guessed || n >= 16)) {
        // Pairwise comparison is fastest for the usual handful; a set keeps huge tags linear.
        let duplicate = false;
        if (n < 16) {
          for (let p = 0; p < n; p++) if (pool[p].qname === aq) duplicate = true;
        } else {
          if (seen === null) seen = new Set(pool.slice(0, n).map((a) => a.qname));
          duplicate = seen.has(aq);
          seen.add(aq);
        }
        if (duplicate) {
          this.fail(an, `duplicate attribute '${aq}' in start tag <${qname}>`);
          if (!this.recover) return FAIL;
          continue; // recovery: the first value is kept
        }
      }
      if (attrColon >= 0 || aq === "xmlns") nsWork = true;
      let attribute = pool[n];
      if (attribute === undefined) pool[n] = attribute = new MutableAttribute(text);
      attribute.fill(aq, ap, al, an, vs, k, special ? this.decodeRun(vs, k, true) : null, marks);
      n++;
    }
    if (broken) {
      if (!this.recover) return FAIL;
      j = this.abandonTag(j);
      selfClosing = this.abandonedSelfClosing;
    }

    if (missed || (predicted !== undefined && predicted.length !== n)) remember(qname, predicted, pool, n);
    let list: MutableAttribute[] | null = null;
    if (n > 0) {
      list = this.attributeView;
      list.length = n;
      for (let p = 0; p < n; p++) list[p] = pool[p];
    }
    const bindingMark = this.boundPrefixes.length;
    let prefix = "";
    let local = qname;
    if (elementColon >= 0) {
      prefix = internedName(text, nameStart, elementColon);
      local = internedName(text, elementColon + 1, nameEnd);
    }
    let uri = "";
    if (this.ns) {
      if (nsWork) {
        list = this.applyNamespaces(list!, qname);
        if (list === null) return FAIL;
      }
      if (prefix === "xmlns") {
        this.fail(nameStart, `element <${qname}> must not use the 'xmlns' prefix`);
        if (!this.recover) return FAIL;
      }
      const resolved = prefix === "" && this.boundPrefixes.length === 0 ? "" : this.resolvePrefix(prefix);
      if (resolved === null) {
        this.fail(nameStart, `undeclared namespace prefix '${prefix}' in element <${qname}>`);
        if (!this.recover) return FAIL;
      }
      uri = resolved ?? "";
    }
    const depth = this.open.length;
    const tag = this.startTag;
    tag.qname = qname;
    tag.prefix = prefix;
    tag.local = local;
    tag.uri = uri;
    tag.attributes = list ?? EMPTY_ATTRIBUTES;
    tag.start = i;
    tag.end = j;
    tag.selfClosing = selfClosing;
    tag.depth = depth;
    if (depth === 0) this.rootSeen = true;
    this.visitor.startElement(tag);
    if (selfClosing) {
      if (this.wantEnd) this.emitEndTag(qname, local, uri, i, j, depth);
      if (this.boundPrefixes.length > bindingMark) this.unbind(bindingMark);
    } else {
      this.open.push({ qname, local, uri, start: i, depth, bindingMark });
      const openNames = this.openNames;
      if (openNames !== null) openNames.set(qname, (openNames.get(qname) ?? 0) + 1);
    }
    return j;
  }

  /**
   * Recovery: where a broken start tag ends, scanning from `from`: after the first `>` (the tag was
   * `/>`-closed when `/` precedes it), or at the first `<` or the end (the tag is unclosed: it ends there).
   */
  private abandonTag(from: number): number {
    const text = this.text;
    for (let k = from; k < this.len; k++) {
      const c = text.charCodeAt(k);
      if (c === 0x3e) {
        this.abandonedSelfClosing = text.charCodeAt(k - 1) === 0x2f;
        return k + 1;
      }
      if (c === 0x3c) break;
    }
    this.abandonedSelfClosing = false;
    const lt = this.nextLt(from);
    return lt;
  }

  /**
   * Namespace pass over a start tag's attributes: applies `xmlns` declarations, then resolves prefixed
   * attributes and rejects two attributes with the same namespace and local name. Returns the
   * attributes, or null after failing (strict mode); recovery skips an illegal declaration, leaves an
   * undeclared prefix without a namespace and drops the second of two same-named attributes.
   */
  private applyNamespaces(list: MutableAttribute[], qname: string): MutableAttribute[] | null {
    for (const a of list) {
      if (a.prefix === "xmlns" || (a.prefix === "" && a.qname === "xmlns")) {
        if (!this.declareNamespace(a) && !this.recover) return null;
        a.uri = XMLNS_NAMESPACE;
      }
    }
    const expanded = new Map<string, MutableAttribute>();
    let dropped: Set<MutableAttribute> | null = null;
    for (let p = 0; p < list.length; p++) {
      const a = list[p];
      if (a.prefix === "" || a.prefix === "xmlns") continue;
      const r = this.resolvePrefix(a.prefix);
      if (r === null) {
        this.fail(a.nameStart, `undeclared namespace prefix '${a.prefix}' in attribute '${a.qname}' of <${qname}>`);
        if (!this.recover) return null;
        continue;
      }
      a.uri = r;
      const key = `{${r}}${a.local}`;
      const other = expanded.get(key);
      if (other !== undefined) {
        this.fail(
          a.nameStart,
          `duplicate attribute '${key}' ('${other.qname}' and '${a.qname}' name the same namespace and local name)`,
        );
        if (!this.recover) return null;
        (dropped ??= new Set()).add(a);
        continue;
      }
      expanded.set(key, a);
    }
    return dropped === null ? list : list.filter((a) => !dropped.has(a));
  }

  /** Applies one xmlns declaration; returns false (after failing) when it is illegal. */
  private declareNamespace(a: MutableAttribute): boolean {
    const aq = a.qname;
    const value = a.value;
    const at = a.nameStart;
    if (aq.length === 5) {
      if (value === XML_NAMESPACE || value === XMLNS_NAMESPACE) {
        this.fail(at, `the namespace '${value}' cannot be the default namespace`);
        return false;
      }
      this.bind("", value);
      return true;
    }
    const prefix = aq.slice(6);
    if (prefix === "xmlns") {
      this.fail(at, "the prefix 'xmlns' cannot be declared");
      return false;
    }
    if (prefix === "xml") {
      if (value !== XML_NAMESPACE) {
        this.fail(at, `the prefix 'xml' can only be bound to '${XML_NAMESPACE}'`);
        return false;
      }
      return true;
    }
    if (value === "") {
      this.fail(at, `the prefix '${prefix}' cannot be bound to an empty namespace name`);
      return false;
    }
    if (value === XML_NAMESPACE || value === XMLNS_NAMESPACE) {
      this.fail(at, `the namespace '${value}' cannot be bound to the prefix '${prefix}'`);
      return false;
    }
    this.bind(prefix, value);
    return true;
  }

  private bind(prefix: string, uri: string): void {
    this.boundPrefixes.push(prefix);
    const uris = this.scopes.get(prefix);
    if (uris === undefined) {
      const made = [uri];
      this.scopes.set(prefix, made);
      if (prefix === "") this.defaultUris = made;
    } else uris.push(uri);
  }

  /** Ends the scope of the declarations made after the first `mark` ones. */
  private unbind(mark: number): void {
    const prefixes = this.boundPrefixes;
    while (prefixes.length > mark) this.scopes.get(prefixes.pop()!)!.pop();
  }

  /** The namespace URI of `prefix` in the current scope ("" for no default namespace), or null when undeclared. */
  private resolvePrefix(prefix: string): string | null {
    // The default namespace (every unprefixed element of a mod) without a map lookup.
    const uris = prefix === "" ? this.defaultUris : this.scopes.get(prefix);
    if (uris !== undefined && uris.length > 0) return uris[uris.length - 1];
    if (prefix === "") return "";
    if (prefix === "xml") return XML_NAMESPACE;
    return null;
  }

  private parseEndTag(i: number): number {
    const text = this.text;
    const nameStart = i + 2;
    const top = this.open[this.open.length - 1];
    const expected = top.qname;
    // The name it must have, when it is there (followed by a character that ends a name): not scanned.
    const after = text.charCodeAt(nameStart + expected.length);
    const nameEnd = after < 0x80 && ASCII_NAME[after] === 0 && text.startsWith(expected, nameStart)
      ? nameStart + expected.length
      : this.scanName(nameStart);
    if (nameEnd === nameStart) {
      if (nameStart >= this.len) return this.fail(i, "end tag is not closed (end of file reached)");
      return this.fail(
        nameStart,
        `invalid end tag: '</' must be followed by a name, found ${describeChar(text.charCodeAt(nameStart))}`,
      );
    }
    const matches = nameEnd - nameStart === expected.length && text.startsWith(expected, nameStart);
    if (!matches) {
      this.fail(
        i,
        `end tag </${text.slice(nameStart, nameEnd)}> does not match start tag <${expected}> (${
          this.where(top.start)
        })`,
      );
      if (!this.recover) return FAIL;
    }
    const name = matches ? expected : text.slice(nameStart, nameEnd);
    let j = nameEnd;
    while (isWs(text.charCodeAt(j))) j++;
    let end = j + 1;
    if (text.charCodeAt(j) !== 0x3e) {
      if (j >= this.len) this.fail(i, `end tag </${name}> is not closed (end of file reached)`);
      else this.fail(j, `expected '>' to close end tag </${name}>, found ${describeChar(text.charCodeAt(j))}`);
      if (!this.recover) return FAIL;
      end = j; // recovery: the end tag ends where its `>` should be
    }
    if (!matches) {
      // Recovery: an end tag naming an open ancestor closes everything up to it; any other is ignored.
      if (this.openNames === null) {
        this.openNames = new Map();
        for (const e of this.open) this.openNames.set(e.qname, (this.openNames.get(e.qname) ?? 0) + 1);
      }
      if (!this.openNames.has(name)) return end;
      while (this.open[this.open.length - 1].qname !== name) this.emitEnd(this.open.pop()!, i, i);
    }
    this.emitEnd(this.open.pop()!, i, end);
    return end;
  }
}
