/**
 * The shallow scanner (domain-spec §8): reads only what the index needs from large art files (`.w3x`)
 * and other files that are not fully parsed, without building nodes. It works on the bytes, skips
 * each top-level element's subtree with a native substring search when that is provably safe, and
 * keeps only compact records (line/column are computed transiently).
 *
 * It is lenient where the full tokenizer is strict (unquoted and valueless attributes are read, text
 * is not checked) and strict only about constructs it must not misread: an unterminated comment,
 * CDATA section, PI, DOCTYPE or tag, or a mismatched end tag, stops the scan with an `error`. End
 * tags inside skipped subtrees are not checked, and nothing after the root's end tag is read.
 * Attribute values are entity-decoded and whitespace-normalised like the tokenizer's, so both agree.
 */
import * as nodeBuffer from "node:buffer";
import { Buffer } from "node:buffer";
import {
  declaredSingleByteEncoding,
  decodeSingleByte,
  decodeUtf8Strict,
  decodeXml,
  isAsciiBytes,
  sniffEncoding,
} from "./decode.ts";
import type { ShallowAsset, ShallowDefine, ShallowInclude, ShallowScan, ShallowXInclude } from "./types.ts";

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QMARK = 0x3f;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const EQ = 0x3d;

function isWsByte(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x09 || b === 0x0d;
}

const NEEDLE_COMMENT_END = Buffer.from("-->");
const NEEDLE_CDATA_END = Buffer.from("]]>");
const NEEDLE_PI_END = Buffer.from("?>");
const NEEDLE_BANG = Buffer.from("<!");
const NEEDLE_QMARK = Buffer.from("<?");
const NEEDLE_INCLUDE = Buffer.from("include");

const isUtf8Bytes: (b: Uint8Array) => boolean = typeof (nodeBuffer as { isUtf8?: unknown }).isUtf8 === "function"
  ? (nodeBuffer as unknown as { isUtf8: (b: Uint8Array) => boolean }).isUtf8
  : (b) => decodeUtf8Strict(b) !== null;

const PREDEFINED: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", apos: "'", quot: '"' };

/** How byte offsets map to text offsets and how attribute bytes become strings. */
type ByteMode = "ascii" | "utf-8" | "single-byte";

/** A record whose position is still a byte offset (`at`). */
interface Pending<T> {
  readonly at: number;
  readonly record: T;
}

interface TextPosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** An attribute found in a start tag: byte range of its value (quotes excluded). */
interface RawAttribute {
  readonly valueStart: number;
  readonly valueEnd: number;
  readonly quoted: boolean;
}

/**
 * Scans a document's top-level structure: root name, top-level assets (root children with a
 * non-empty `id`), `<Include>`s in root-level `<Includes>`, `<Define>`s in root-level `<Defines>`, and
 * every element named `include` (any prefix) with an `href`, at any depth. Positions are UTF-16 text
 * offsets with 1-based line/column, identical to what {@link decodeXml} + `LineMap` give.
 * @example scanShallow(new TextEncoder().encode('<A><W3DMesh id="M"/></A>')).assets[0] // { type: "W3DMesh", id: "M", line: 1, column: 17, offset: 16, start: 3 }
 */
export function scanShallow(bytes: Uint8Array): ShallowScan {
  return scanShallowAscii(bytes).scan;
}

/**
 * {@link scanShallow}, and whether the bytes after a UTF-8 byte order mark are pure ASCII when the scan
 * had to find out (null when it did not: a declared single-byte encoding, UTF-16), and whether they were
 * read as UTF-8 with non-ASCII characters (`utf8`: valid UTF-8, no single-byte encoding declared), or
 * as a single-byte code page (`singleByte`: declared, or windows-1252 for bytes that are not UTF-8 —
 * as `decodeXml` decodes them). A reader that wants the same answer (art references read in place) need
 * not scan the bytes again.
 * @example scanShallowAscii(new TextEncoder().encode("<a/>")).ascii // true
 */
export function scanShallowAscii(
  bytes: Uint8Array,
): {
  readonly scan: ShallowScan;
  readonly ascii: boolean | null;
  readonly utf8: boolean;
  readonly singleByte: "windows-1252" | "iso-8859-1" | null;
} {
  const sniff = sniffEncoding(bytes);
  if (sniff.family !== "8-bit") {
    // UTF-16 is rare: decode, re-encode as UTF-8 and map the offsets back through the UTF-8 counting.
    const utf8 = new TextEncoder().encode(decodeXml(bytes).text);
    return { scan: new ShallowScanner(utf8, 0, "utf-8", false).run(), ascii: null, utf8: false, singleByte: null };
  }
  const body = bytes.subarray(sniff.bomBytes);
  let mode: ByteMode;
  let cp1252 = true;
  let ascii: boolean | null = null;
  const single = declaredSingleByteEncoding(bytes);
  if (single !== null) {
    mode = "single-byte";
    cp1252 = single === "windows-1252";
  } else if ((ascii = isAsciiBytes(body))) mode = "ascii";
  else if (isUtf8Bytes(body)) mode = "utf-8";
  else mode = "single-byte";
  return {
    scan: new ShallowScanner(bytes, sniff.bomBytes, mode, cp1252).run(),
    ascii,
    utf8: mode === "utf-8",
    singleByte: mode !== "single-byte" ? null : cp1252 ? "windows-1252" : "iso-8859-1",
  };
}

class ShallowScanner {
  private readonly work: Buffer;
  private readonly n: number;
  private readonly base: number;
  private readonly mode: ByteMode;
  private readonly cp1252: boolean;
  // Records keep byte offsets (`at`) until the end, when all positions are resolved in one forward pass.
  private readonly assets: Pending<ShallowAsset>[] = [];
  private readonly includes: Pending<ShallowInclude>[] = [];
  private readonly defines: Pending<ShallowDefine>[] = [];
  private readonly xincludes: Pending<ShallowXInclude>[] = [];
  private errorAt = -1;
  private errorMessage = "";
  private rootName: string | null = null;
  /** Open element qnames (as written). */
  private readonly stack: string[] = [];
  /** Local name of the open depth-1 element, or null. */
  private depth1Local: string | null = null;
  // Cached next occurrences of fixed needles (-2 = not searched yet, -1 = none left).
  private nextBang = -2;
  private nextQmark = -2;
  private nextInclude = -2;

  constructor(bytes: Uint8Array, base: number, mode: ByteMode, cp1252: boolean) {
    this.work = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.n = bytes.length;
    this.base = base;
    this.mode = mode;
    this.cp1252 = cp1252;
  }

  run(): ShallowScan {
    this.scan();
    if (this.rootName === null && this.errorAt < 0) this.fail(this.n, "document has no root element");
    const wanted: number[] = [];
    for (const list of [this.assets, this.includes, this.defines, this.xincludes] as Pending<object>[][]) {
      for (const r of list) wanted.push(r.at);
    }
    for (const a of this.assets) wanted.push(a.record.start);
    if (this.errorAt >= 0) wanted.push(this.errorAt);
    const positions = this.resolvePositions(wanted);
    const place = <T extends object>(p: Pending<T>): T => {
      const pos = positions.get(p.at)!;
      return { ...p.record, line: pos.line, column: pos.column, offset: pos.offset };
    };
    const error = this.errorAt < 0 ? null : { message: this.errorMessage, ...positions.get(this.errorAt)! };
    return {
      rootName: this.rootName,
      assets: this.assets.map((a) => ({ ...place(a), start: positions.get(a.record.start)!.offset })),
      includes: this.includes.map(place),
      defines: this.defines.map(place),
      xincludes: this.xincludes.map(place),
      error,
    };
  }

  private fail(at: number, message: string): void {
    if (this.errorAt >= 0) return;
    this.errorAt = at;
    this.errorMessage = message;
  }

  private scan(): void {
    const work = this.work;
    const n = this.n;
    let i = this.base;
    for (;;) {
      const lt = work.indexOf(LT, i);
      if (lt < 0) {
        if (this.stack.length > 0) {
          const top = this.stack[this.stack.length - 1];
          this.fail(n, `end of file reached, but element <${top}> is not closed`);
        }
        return;
      }
      const c1 = work[lt + 1];
      if (c1 === BANG) {
        i = this.skipBang(lt);
      } else if (c1 === QMARK) {
        const end = work.indexOf(NEEDLE_PI_END, lt + 2);
        if (end < 0) {
          this.fail(lt, "processing instruction is not closed (missing '?>')");
          return;
        }
        i = end + 2;
      } else if (c1 === SLASH) {
        i = this.endTag(lt);
        if (i >= 0 && this.stack.length === 0) return;
      } else {
        i = this.startTag(lt);
        if (i >= 0 && this.stack.length === 0) return;
      }
      if (i < 0) return;
    }
  }

  /** `<!…`: comment, CDATA or a declaration (DOCTYPE) with quotes and an internal subset. */
  private skipBang(lt: number): number {
    const work = this.work;
    if (work[lt + 2] === 0x2d && work[lt + 3] === 0x2d) {
      const end = work.indexOf(NEEDLE_COMMENT_END, lt + 4);
      if (end < 0) {
        this.fail(lt, "comment is not closed (missing '-->')");
        return -1;
      }
      return end + 3;
    }
    if (this.startsWith(lt, "<![CDATA[")) {
      const end = work.indexOf(NEEDLE_CDATA_END, lt + 9);
      if (end < 0) {
        this.fail(lt, "CDATA section is not closed (missing ']]>')");
        return -1;
      }
      return end + 3;
    }
    let inSubset = false;
    for (let j = lt + 2; j < this.n; j++) {
      const c = work[j];
      if (c === DQUOTE || c === SQUOTE) {
        const close = work.indexOf(c, j + 1);
        if (close < 0) break;
        j = close;
      } else if (inSubset && c === LT && work[j + 1] === BANG && work[j + 2] === 0x2d && work[j + 3] === 0x2d) {
        const close = work.indexOf(NEEDLE_COMMENT_END, j + 4);
        if (close < 0) break;
        j = close + 2;
      } else if (c === 0x5b) inSubset = true;
      else if (c === 0x5d) inSubset = false;
      else if (c === GT && !inSubset) return j + 1;
    }
    this.fail(lt, "declaration is not closed (missing '>')");
    return -1;
  }

  private startsWith(at: number, ascii: string): boolean {
    const work = this.work;
    if (at + ascii.length > this.n) return false;
    for (let k = 0; k < ascii.length; k++) if (work[at + k] !== ascii.charCodeAt(k)) return false;
    return true;
  }

  /** End of the name starting at `from` (a name runs until whitespace, `/`, `>`, `=` or a quote). */
  private nameEnd(from: number): number {
    const work = this.work;
    let j = from;
    while (j < this.n) {
      const c = work[j];
      if (c === GT || c === SLASH || c === EQ || c === DQUOTE || c === SQUOTE || c === LT || isWsByte(c)) break;
      j++;
    }
    return j;
  }

  private endTag(lt: number): number {
    const work = this.work;
    const ne = this.nameEnd(lt + 2);
    const gt = work.indexOf(GT, ne);
    if (gt < 0) {
      this.fail(lt, "end tag is not closed (missing '>')");
      return -1;
    }
    const name = this.decode(lt + 2, ne);
    const top = this.stack.pop();
    if (top === undefined) {
      this.fail(lt, `end tag </${name}> has no matching start tag`);
      return -1;
    }
    if (top !== name) {
      this.fail(lt, `end tag </${name}> does not match start tag <${top}>`);
      return -1;
    }
    if (this.stack.length === 1) this.depth1Local = null;
    return gt + 1;
  }

  private startTag(lt: number): number {
    const work = this.work;
    const n = this.n;
    const ne = this.nameEnd(lt + 1);
    if (ne === lt + 1) {
      this.fail(lt, "'<' is not followed by an element name");
      return -1;
    }
    // Find the tag's `>`, skipping quoted values (a `>` inside quotes does not end the tag).
    let gt = -1;
    for (let j = ne; j < n; j++) {
      const c = work[j];
      if (c === GT) {
        gt = j;
        break;
      }
      if (c === DQUOTE || c === SQUOTE) {
        const close = work.indexOf(c, j + 1);
        if (close < 0) break;
        j = close;
      }
    }
    const qname = this.decode(lt + 1, ne);
    if (gt < 0) {
      this.fail(lt, `start tag <${qname}> is not closed (missing '>')`);
      return -1;
    }
    const selfClosing = work[gt - 1] === SLASH && gt - 1 >= ne;
    const attrsEnd = selfClosing ? gt - 1 : gt;
    const colon = qname.indexOf(":");
    const local = colon >= 0 ? qname.slice(colon + 1) : qname;
    const depth = this.stack.length;

    if (depth === 0) {
      if (this.rootName === null) this.rootName = local;
    } else if (depth === 1) {
      const id = this.findAttribute(ne, attrsEnd, "id");
      if (id !== null && id.valueEnd > id.valueStart) {
        const value = this.value(id);
        if (value !== "") {
          this.assets.push({
            at: id.valueStart,
            record: { type: local, id: value, start: lt, line: 0, column: 0, offset: 0 },
          });
        }
      }
    } else if (depth === 2) {
      if (this.depth1Local === "Includes" && local === "Include") this.readInclude(ne, attrsEnd);
      else if (this.depth1Local === "Defines" && local === "Define") this.readDefine(ne, attrsEnd);
    }
    if (local === "include") this.readXInclude(ne, attrsEnd, depth);

    if (selfClosing) return gt + 1;
    this.stack.push(qname);
    if (depth === 1) {
      this.depth1Local = local;
      if (local !== "Includes" && local !== "Defines") {
        const after = this.skipSubtree(qname, gt + 1);
        if (after >= 0) {
          this.stack.pop();
          this.depth1Local = null;
          return after;
        }
      }
    }
    return gt + 1;
  }

  /**
   * Jumps over the content and end tag of the element `qname` whose start tag ended at `from`, or
   * returns -1 when that is not provably safe: the candidate end tag could be inside a comment, CDATA
   * or PI, there could be a nested element of the same name, or an `include` element could hide in it.
   */
  private skipSubtree(qname: string, from: number): number {
    const work = this.work;
    const close = Buffer.from("</" + qname, "latin1");
    let e = from;
    for (;;) {
      e = work.indexOf(close, e);
      if (e < 0) return -1;
      const after = work[e + close.length];
      if (after === GT || isWsByte(after)) break;
      e++;
    }
    if (this.next("bang", from) < e || this.next("qmark", from) < e || this.next("include", from) < e) return -1;
    const open = Buffer.from("<" + qname, "latin1");
    const range = work.subarray(from, e);
    for (let k = range.indexOf(open); k >= 0; k = range.indexOf(open, k + 1)) {
      const after = range[k + open.length];
      if (after === undefined || after === GT || after === SLASH || isWsByte(after)) return -1;
    }
    let j = e + close.length;
    while (j < this.n && isWsByte(work[j])) j++;
    return work[j] === GT ? j + 1 : -1;
  }

  /** Next offset >= `from` of a fixed needle (or +Infinity), cached because `from` only grows. */
  private next(which: "bang" | "qmark" | "include", from: number): number {
    let cached = which === "bang" ? this.nextBang : which === "qmark" ? this.nextQmark : this.nextInclude;
    if (cached === -1) return Infinity;
    if (cached < from) {
      const needle = which === "bang" ? NEEDLE_BANG : which === "qmark" ? NEEDLE_QMARK : NEEDLE_INCLUDE;
      cached = this.work.indexOf(needle, from);
      if (which === "bang") this.nextBang = cached;
      else if (which === "qmark") this.nextQmark = cached;
      else this.nextInclude = cached;
      if (cached === -1) return Infinity;
    }
    return cached;
  }

  private readInclude(from: number, to: number): void {
    const source = this.findAttribute(from, to, "source");
    if (source === null) return;
    const value = this.value(source);
    if (value === "") return;
    const typeAttr = this.findAttribute(from, to, "type");
    const rawType = typeAttr === null ? null : this.value(typeAttr);
    const type = rawType === "all" || rawType === "instance" || rawType === "reference" ? rawType : null;
    this.includes.push({
      at: source.valueStart,
      record: { type, rawType, source: value, line: 0, column: 0, offset: 0 },
    });
  }

  private readDefine(from: number, to: number): void {
    const nameAttr = this.findAttribute(from, to, "name");
    if (nameAttr === null) return;
    const name = this.value(nameAttr);
    if (name === "") return;
    const valueAttr = this.findAttribute(from, to, "value");
    const value = valueAttr === null ? "" : this.value(valueAttr);
    this.defines.push({ at: nameAttr.valueStart, record: { name, value, line: 0, column: 0, offset: 0 } });
  }

  private readXInclude(from: number, to: number, depth: number): void {
    const hrefAttr = this.findAttribute(from, to, "href");
    if (hrefAttr === null) return;
    const href = this.value(hrefAttr);
    if (href === "") return;
    const xp = this.findAttribute(from, to, "xpointer");
    const xpointer = xp === null ? null : this.value(xp);
    this.xincludes.push({
      at: hrefAttr.valueStart,
      record: { href, xpointer, rootLevel: depth === 1, line: 0, column: 0, offset: 0 },
    });
  }

  /**
   * The first attribute called `name` in the tag bytes [from, to): quoted, unquoted or valueless
   * (an empty value), or null.
   */
  private findAttribute(from: number, to: number, name: string): RawAttribute | null {
    const work = this.work;
    let j = from;
    while (j < to) {
      while (j < to && isWsByte(work[j])) j++;
      if (j >= to) return null;
      const ns = j;
      while (j < to) {
        const c = work[j];
        if (c === EQ || c === DQUOTE || c === SQUOTE || isWsByte(c)) break;
        j++;
      }
      const ne = j;
      if (ne === ns) {
        // A stray quote: skip the quoted run so that its content is not read as attributes.
        const close = this.indexWithin(work[j], j + 1, to);
        j = close < 0 ? to : close + 1;
        continue;
      }
      while (j < to && isWsByte(work[j])) j++;
      let attr: RawAttribute;
      if (work[j] === EQ && j < to) {
        j++;
        while (j < to && isWsByte(work[j])) j++;
        const q = work[j];
        if (j < to && (q === DQUOTE || q === SQUOTE)) {
          const close = this.indexWithin(q, j + 1, to);
          const end = close < 0 ? to : close;
          attr = { valueStart: j + 1, valueEnd: end, quoted: true };
          j = end + 1;
        } else {
          const vs = j;
          while (j < to && !isWsByte(work[j])) j++;
          attr = { valueStart: vs, valueEnd: j, quoted: false };
        }
      } else {
        attr = { valueStart: ne, valueEnd: ne, quoted: false };
      }
      if (ne - ns === name.length && this.startsWith(ns, name)) return attr;
    }
    return null;
  }

  /** Index of `byte` in [from, to), or -1; bounded, unlike indexOf, so a malformed tag costs only its length. */
  private indexWithin(byte: number, from: number, to: number): number {
    const work = this.work;
    for (let k = from; k < to; k++) if (work[k] === byte) return k;
    return -1;
  }

  /** An attribute's value as the tokenizer would deliver it (references decoded, whitespace normalised). */
  private value(attr: RawAttribute): string {
    const raw = this.decode(attr.valueStart, attr.valueEnd);
    if (!attr.quoted) return raw;
    return normaliseValue(raw);
  }

  private decode(from: number, to: number): string {
    const slice = this.work.subarray(from, to);
    if (this.mode === "single-byte") return decodeSingleByte(slice, this.cp1252);
    if (this.mode === "ascii") return slice.toString("latin1");
    return slice.toString("utf8");
  }

  /**
   * Text offset and 1-based line/column for each byte offset in `wanted`, in one forward pass over the
   * bytes up to the last of them (line breaks and, in UTF-8, UTF-16 units counted a word at a time).
   */
  private resolvePositions(wanted: number[]): Map<number, TextPosition> {
    const out = new Map<number, TextPosition>();
    if (wanted.length === 0) return out;
    const sorted = Float64Array.from(wanted).sort();
    const work = this.work;
    const base = this.base;
    const utf8 = this.mode === "utf-8";
    let line = 1;
    let lineStartByte = base;
    let lineStartUnits = 0;
    let cursor = base;
    let units = 0;
    for (const at of sorted) {
      if (out.has(at)) continue;
      // The line breaks between the records, a word at a time (in UTF-8 too: an LF or CR byte is never
      // part of a multi-byte character).
      const breaks = countLineBreaks(work, cursor, at);
      if (breaks > 0) {
        line += breaks;
        lineStartByte = lastLineBreak(work, cursor, at) + 1;
      }
      if (!utf8) {
        // One byte is one UTF-16 unit.
        units = at - base;
        lineStartUnits = lineStartByte - base;
      } else if (breaks > 0) {
        // The UTF-16 units up to the last line's start and on to the record, a word at a time.
        lineStartUnits = units + countUtf16Units(work, cursor, lineStartByte);
        units = lineStartUnits + countUtf16Units(work, lineStartByte, at);
      } else units += countUtf16Units(work, cursor, at);
      cursor = at;
      out.set(at, { offset: units, line, column: units - lineStartUnits + 1 });
    }
    return out;
  }
}

/**
 * Attribute-value normalisation as the tokenizer applies it: CRLF, CR, LF and tab → one space, the
 * predefined entities and character references decoded (anything else is left as written).
 */
function normaliseValue(raw: string): string {
  if (raw.indexOf("&") < 0 && !/[\t\n\r]/.test(raw)) return raw;
  return raw
    .replace(/\r\n|[\t\n\r]/g, " ")
    .replace(/&(#x[0-9A-Fa-f]+|#[0-9]+|[A-Za-z]+);/g, (m, ref: string) => {
      if (ref.charCodeAt(0) !== 0x23) return PREDEFINED[ref] ?? m;
      const cp = ref.charCodeAt(1) === 0x78 ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    });
}

/**
 * The line breaks in `work[from, to)`: each LF, and each CR not followed by LF (a CRLF pair counts once,
 * at its LF, even when the LF lies past `to`). Read four bytes at a time: art files are hundreds of
 * megabytes of short lines, and a record's line is the count of every break before it.
 */
export function countLineBreaks(work: Uint8Array, from: number, to: number): number {
  let n = 0;
  let k = from;
  const head = Math.min(to, from + ((4 - ((work.byteOffset + from) & 3)) & 3));
  for (; k < head; k++) n += breakAt(work, k);
  const words = LITTLE_ENDIAN ? (to - k) >> 2 : 0;
  if (words > 0) {
    const w = new Int32Array(work.buffer, work.byteOffset + k, words);
    for (let i = 0; i < words; i++) {
      const x = w[i];
      // A byte of `lf` (`cr`) has its high bit set exactly where the byte of `x` is LF (CR).
      const a = x ^ 0x0a0a0a0a;
      const lf = ~(((a & 0x7f7f7f7f) + 0x7f7f7f7f) | a | 0x7f7f7f7f);
      const c = x ^ 0x0d0d0d0d;
      const cr = ~(((c & 0x7f7f7f7f) + 0x7f7f7f7f) | c | 0x7f7f7f7f);
      if (lf !== 0) n += Math.imul((lf >>> 7) & 0x01010101, 0x01010101) >>> 24;
      if (cr !== 0) {
        // A CR counts when no LF follows it: the next byte's LF bit is 8 bits up (little-endian), and
        // the last byte's next byte is the next word's first.
        const lone = cr & ~(lf >>> 8);
        if (lone !== 0) {
          n += Math.imul((lone >>> 7) & 0x01010101, 0x01010101) >>> 24;
          if (lone < 0 && work[k + (i << 2) + 4] === 0x0a) n--;
        }
      }
    }
    k += words << 2;
  }
  for (; k < to; k++) n += breakAt(work, k);
  return n;
}

/**
 * The UTF-16 units the UTF-8 bytes `work[from, to)` decode to: one per byte that starts a character, two
 * for a 4-byte lead (a surrogate pair), none for a continuation byte (`10xxxxxx`); bytes that are not
 * UTF-8 (0xF8–0xFF) count as 4-byte leads. Four bytes at a time, like {@link countLineBreaks}.
 */
export function countUtf16Units(work: Uint8Array, from: number, to: number): number {
  // Most of a UTF-8 art file is ASCII (its non-ASCII text a comment or a name or two): a native test of the
  // range answers those at memory speed, and only a range holding a non-ASCII byte is counted below.
  if (to - from >= ASCII_TEST_MIN && isAsciiBytes(work.subarray(from, to))) return to - from;
  let n = 0;
  let k = from;
  const head = Math.min(to, from + ((4 - ((work.byteOffset + from) & 3)) & 3));
  for (; k < head; k++) n += utf16UnitsOfByte(work[k]);
  const words = LITTLE_ENDIAN ? (to - k) >> 2 : 0;
  if (words > 0) {
    const w = new Int32Array(work.buffer, work.byteOffset + k, words);
    for (let i = 0; i < words; i++) {
      const x = w[i];
      // Shifted left by d, a byte's bit 7 holds its own bit 7 - d (no bit crosses into the next byte's).
      const continuation = x & ~(x << 1) & 0x80808080;
      const fourByteLead = x & (x << 1) & (x << 2) & (x << 3) & 0x80808080;
      n += 4;
      if (continuation !== 0) n -= Math.imul((continuation >>> 7) & 0x01010101, 0x01010101) >>> 24;
      if (fourByteLead !== 0) n += Math.imul((fourByteLead >>> 7) & 0x01010101, 0x01010101) >>> 24;
    }
    k += words << 2;
  }
  for (; k < to; k++) n += utf16UnitsOfByte(work[k]);
  return n;
}

/** The shortest range {@link countUtf16Units} first tests as ASCII (a shorter one is a few words of the loop). */
const ASCII_TEST_MIN = 64;

/** The UTF-16 units a UTF-8 byte adds (see {@link countUtf16Units}). */
export function utf16UnitsOfByte(b: number): number {
  return b < 0x80 ? 1 : b < 0xc0 ? 0 : b < 0xf0 ? 1 : 2;
}

/** The offset of the last line break in `work[from, to)` (as {@link countLineBreaks} counts them), or -1. */
export function lastLineBreak(work: Uint8Array, from: number, to: number): number {
  for (let k = to - 1; k >= from; k--) if (breakAt(work, k)) return k;
  return -1;
}

/** The word-at-a-time count reads bytes in little-endian order (every platform ra3 ships for). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** 1 when `work[k]` ends a line (LF, or CR not followed by LF), else 0. */
function breakAt(work: Uint8Array, k: number): number {
  const b = work[k];
  return b === 0x0a || (b === 0x0d && work[k + 1] !== 0x0a) ? 1 : 0;
}
