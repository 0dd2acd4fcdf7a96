/**
 * Full extraction of one XML document into a {@link FileRecord}: top-level assets, defines, includes,
 * xi:includes, reference sites typed by the schema (written ones, the XSD defaults an element omits, the
 * names the engine looks up at run time; heuristic candidates without a schema), Poid references,
 * pipeline-local ids, `$DEFINE` uses and document-level diagnostics. The same extraction, given a
 * {@link SpliceContext}, types what one xi:include splices from a file by the element it is spliced into
 * ({@link extractSplice}). Depends only on the text, the schema and that context: no other file is consulted.
 */
import { LineMap } from "../xml/line-map.ts";
import { SharedStrings } from "../xml/shared-strings.ts";
import { SeenAssets } from "./seen-assets.ts";
import {
  hasAmpOrLt,
  hasChar,
  isBlank,
  isIdStart,
  isSpace,
  scanIdToken,
  skipSpace,
  skipToken,
  trimmedEnd,
} from "./values.ts";
import { parseXml, parseXmlSteps } from "../xml/tokenizer.ts";
import {
  VALUE_HAS_DOLLAR,
  VALUE_HAS_INNER_COLON,
  VALUE_HAS_NON_ASCII,
  VALUE_HAS_SPACE,
  type XmlAttribute,
  type XmlEndTag,
  type XmlStartTag,
  type XmlVisitor,
} from "../xml/types.ts";
import type { AttributeFacts, ChildFacts, SchemaQueries, TextReference, TypeTable } from "../schema/model.ts";
import {
  type AssetDecl,
  type DefineDecl,
  type DefineUse,
  type ElementRange,
  EMPTY,
  emptyRecord,
  type FileRecord,
  type IncludeDecl,
  type IncludeType,
  type LocalId,
  type OmittedDiagnostics,
  type PoidRef,
  RECORD_DIAGNOSTIC_CAP,
  type RecordDiagnostic,
  type RefRecord,
  type StringKeyUse,
  type XIncludeDecl,
} from "./records.ts";

const XINCLUDE_NS = "http://www.w3.org/2001/XInclude";
/** The namespace of asset XML (documents and the fragments xi:include splices in). */
const ASSET_NS = "uri:ea.com:eala:asset";
const STRUCTURAL = new Set(["Tags", "Includes", "Defines"]);
const DEFINE_USE = /\$([A-Za-z_][A-Za-z0-9_]*)/g;
/** A string-table key such as `Name:MyTank` or `Desc:MyTank`. */
const STRING_KEY = /^[A-Za-z][A-Za-z0-9_]*:[A-Za-z0-9_.\-]+$/;
/** Elements and attributes whose values are display texts (string-table keys). */
const TEXT_NAME = /name|desc|text|label|tooltip|title|caption|message/i;
const textNames = new Map<string, boolean>();

/** `name` looks like a display-text field (memoised: the same few names repeat millions of times). */
function isTextName(name: string): boolean {
  let v = textNames.get(name);
  if (v === undefined) {
    v = TEXT_NAME.test(name);
    if (textNames.size < 50_000) textNames.set(name, v);
  }
  return v;
}

/** One open element (mutable so that finished frames can be reused: see {@link newFrame}). */
interface Frame {
  local: string;
  type: string | null;
  /** The schema's table of `type` (null exactly when `type` is). */
  table: TypeTable | null;
  owner: number;
  depth: number;
  /** A top-level asset (its `id` defines it, its `inheritFrom` names its parent). */
  top: boolean;
  parentLocal: string | null;
  /** What the element's text means, when it is collected for references. */
  content: ContentMode | null;
  region: Region;
  hasChild: boolean;
  text: string;
  textStart: number;
  textEnd: number;
  rangeIndex: number;
  idChildren:
    | { type: string; id: string; line: number; column: number; offset: number; start: number; end: number }[]
    | null;
  /** Index of this element in its parent's `idChildren` (to set its end), or -1. */
  idChildIndex: number;
}

/**
 * What an element's text is read as: references to the schema's refType (the schema's own shared
 * object), or, without a schema, {@link HEURISTIC_CONTENT}.
 */
type ContentMode = TextReference;

/** Without a schema every element's text is read as heuristic candidates (told apart by identity). */
const HEURISTIC_CONTENT: ContentMode = Object.freeze({ refType: "", isList: true });

// Element, attribute and type names repeat hundreds of thousands of times across a mod. The tokenizer hands
// out one shared copy of each up to its table's bound; past it (a document with thousands of distinct
// names) a fresh copy each time. One shared copy each keeps the records (and the heap) small.
const interned = new Map<string, string>();

/** The shared copy of a name. */
function intern(s: string): string {
  const hit = interned.get(s);
  if (hit !== undefined) return hit;
  if (interned.size < 200_000) interned.set(s, s);
  return s;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The strings records keep (ids, reference values, keys, sources): a mod names the same few thousand
 * assets over and over, so each value is one shared copy, and one seen before costs neither a slice nor a
 * copy. Every copy shares no storage with the document text (a slice would keep the whole file alive).
 */
const kept = new SharedStrings(17, 1 << 16, 128);

/** The kept copy of `s` (see {@link kept}): every string a record keeps goes through here or {@link keepRange}. */
function keep(s: string): string {
  return kept.get(s, 0, s.length);
}

/** The kept copy of `src[start, end)`, read in place. */
function keepRange(src: string, start: number, end: number): string {
  return kept.get(src, start, end);
}

/**
 * The kept copy of an attribute's trimmed value ("" when blank): a verbatim value that starts and ends
 * with no space (an id, nearly always) is kept from the document in place, with no slice and no trim.
 */
function keptTrimmed(text: string, attr: XmlAttribute): string {
  const { valueStart: from, valueEnd: to } = attr;
  if (attr.verbatim && from < to && !isSpace(text.charCodeAt(from)) && !isSpace(text.charCodeAt(to - 1))) {
    return keepRange(text, from, to);
  }
  const trimmed = attr.value.trim();
  return trimmed ? keep(trimmed) : "";
}

/** True when `value` is an expression or define use, never an asset reference. */
function isExpressionValue(value: string): boolean {
  const c = value.charCodeAt(0);
  return c === 36 /* $ */ || c === 61 /* = */;
}

/**
 * Extracts the record of an XML document. A malformed document is read in the tokenizer's recovery
 * mode: each well-formedness error becomes an `xml-syntax` diagnostic and what comes after it is still
 * extracted (the builder rejects the file, but "defined in a broken file" must not read as "not defined").
 * @param text decoded text (BOM removed)
 * @param schema the schema, or null for heuristic mode
 */
export function extractXmlRecord(text: string, schema: SchemaQueries | null): FileRecord {
  const x = new XmlExtraction(text, schema);
  parseXml(text, recordVisitor(x), RECORD_PARSE);
  return x.record();
}

/**
 * {@link extractXmlRecord} in steps of about `stepChars` characters of the document (see
 * `parseXmlSteps`): for one big file in a process that keeps answering. The record is the same.
 */
export function* extractXmlRecordSteps(
  text: string,
  schema: SchemaQueries | null,
  stepChars: number,
): Generator<void, FileRecord, void> {
  const x = new XmlExtraction(text, schema);
  yield* parseXmlSteps(text, recordVisitor(x), RECORD_PARSE, stepChars);
  return x.record();
}

const RECORD_PARSE = { namespaces: true, recover: true } as const;

/** The tokenizer events of a record's extraction, handed to `x`. */
function recordVisitor(x: XmlExtraction): XmlVisitor {
  return {
    startElement: (t) => x.onStart(t),
    endElement: (t) => x.onEnd(t),
    text: (v, s, e) => x.onText(v, s, e),
    error: (e) => x.onError(e),
  };
}

/**
 * Where an element sits, deciding how it is read. Splice extraction adds two: `skip` (outside what the
 * xi:include selects: not read) and `select` (the xpointer's container: its children are spliced).
 */
type Region = "asset" | "includes" | "defines" | "tags" | "xi" | "root" | "other" | "skip" | "select";

/**
 * Where one xi:include splices what it selects, which decides how the selected elements are typed: as
 * children of the element the xi:include sits in, or (root level) as top-level assets.
 */
export interface SpliceContext {
  /** The schema type of the element the xi:include sits in (null: untyped, the selected elements fall back to the global element map). */
  readonly parentType: string | null;
  /** That element's local name (the `parent` of the top spliced elements' reference sites). */
  readonly parent: string | null;
  /**
   * The `Name` of `xpointer(/n:Name/child::*)`: the children of the first element of that name are
   * spliced. Null: the root element itself is.
   */
  readonly container: string | null;
  /** A root-level xi:include of an `AssetDeclaration`: the selected elements are top-level assets. */
  readonly rootLevel: boolean;
}

/** What one splice brings into the splicing asset: its reference sites, module ids and inner xi:includes. */
export interface SpliceExtraction {
  /** The selection exists (the root, or an element of the container's name). */
  readonly found: boolean;
  readonly refs: readonly RefRecord[];
  readonly localIds: readonly LocalId[];
  /** The xi:includes inside the selection, with their parents typed by this context. */
  readonly xincludes: readonly XIncludeDecl[];
  /** The schema warnings of the selection as typed in this context (`unknown-element`, `unknown-attribute`). */
  readonly diagnostics: readonly RecordDiagnostic[];
}

/**
 * What an xi:include splices from a file, typed by its splice context: a pure function of the file's
 * text (a record's `spliceText`), the schema and the context, so a caller may cache it per pair.
 * Owners in the result are 0 (the splicing asset is the caller's); offsets locate root-level children.
 * @example extractSplice(fragment.spliceText!, schema, { parentType: "GameObjectBehaviors", parent: "Behaviors", container: null, rootLevel: false }).refs
 */
export function extractSplice(text: string, schema: SchemaQueries | null, context: SpliceContext): SpliceExtraction {
  const x = new XmlExtraction(text, schema, context);
  parseXml(
    text,
    { startElement: (t) => x.onStart(t), endElement: (t) => x.onEnd(t), text: (v, s, e) => x.onText(v, s, e) },
    { namespaces: true, recover: true },
  );
  return x.splice();
}

/**
 * The state of one document's extraction: the lists the record is made of, the element stack, and what
 * the root said (its name, whether the file is a fragment). Each tokenizer event is one method; each kind
 * of element (root, xi:include, structural, asset, element inside an asset) and of attribute has its own.
 */
class XmlExtraction {
  private readonly lines: LineMap;
  private readonly assets: (AssetDecl & { end: number; endLine: number })[] = [];
  private readonly defines: DefineDecl[] = [];
  private readonly includes: IncludeDecl[] = [];
  private readonly xincludes: XIncludeDecl[] = [];
  private readonly refs: RefRecord[] = [];
  private readonly poidRefs: PoidRef[] = [];
  private readonly localIds: LocalId[] = [];
  private readonly defineUses: DefineUse[] = [];
  private readonly stringKeys: StringKeyUse[] = [];
  private readonly ranges: (ElementRange & { end: number })[] = [];
  private readonly rangeByName = new Map<string, number>();
  private readonly diagnostics: RecordDiagnostic[] = [];
  /**
   * A record's extraction (not a splice's): `code\0severity` → diagnostics of it so far, for the cap; and
   * the groups past it. Each code's diagnostics are made in document order (each at a place in the start tag
   * being read), so the ones held are the first of each code, as the output lists them.
   */
  private readonly perCode: Map<string, number> | null;
  private readonly omitted = new Map<string, Mutable<OmittedDiagnostics>>();
  /** The (element name, id) pairs declared so far, with the index of each one's first definition (`seen-assets.ts`). */
  private readonly seenAssets = new SeenAssets(this.assets);
  private readonly stack: Frame[] = [];
  private rootName: string | null = null;
  /** The root is not `AssetDeclaration`: the file is a fragment for xi:include. */
  private fragment = false;
  /** Not asset XML at all (see {@link FileRecord.foreign}). */
  private foreign = false;
  /** An xi:include names this document itself (its text is kept for the splice). */
  private sameDocument = false;
  /** Splice extraction: the container of the context's xpointer was met (only the first one counts). */
  private containerSeen = false;
  private found = false;

  constructor(
    private readonly text: string,
    private readonly schema: SchemaQueries | null,
    private readonly context: SpliceContext | null = null,
  ) {
    this.lines = new LineMap(text);
    this.perCode = context === null ? new Map() : null;
  }

  onStart(tag: XmlStartTag): void {
    const stack = this.stack;
    const parent = stack.length ? stack[stack.length - 1] : null;
    if (parent) parent.hasChild = true;
    const depth = tag.depth;
    const local = tag.local;
    if (depth === 0) return this.context ? this.startSpliceRoot(tag) : this.startRoot(tag);
    if (parent!.region === "skip") return this.startSkipped(tag);
    if (parent!.region === "select") return this.startSpliced(tag);
    if (this.foreign) return this.startForeign(tag, parent!);
    if (isXInclude(tag)) return this.startXInclude(tag, parent!.owner, parent!.type, parent!.local);
    const region = parent?.region ?? "other";
    if (region === "xi") {
      stack.push(newFrame(local, null, null, parent!.owner, depth, parent!.local, null, "xi"));
      return;
    }
    if (!this.fragment && depth === 1) {
      if (STRUCTURAL.has(local)) {
        const r = local === "Includes" ? "includes" : local === "Defines" ? "defines" : "tags";
        stack.push(newFrame(local, null, null, -1, depth, this.rootName, null, r));
        return;
      }
      return this.startAsset(tag, parent!);
    }
    if (region === "includes" || region === "defines" || region === "tags") {
      if (region === "includes" && depth === 2 && local === "Include") this.addInclude(tag);
      if (region === "defines" && depth === 2 && local === "Define") this.addDefine(tag);
      stack.push(newFrame(local, null, null, -1, depth, parent!.local, null, region));
      return;
    }
    this.startInAsset(tag, parent!);
  }

  onEnd(tag: XmlEndTag): void {
    const stack = this.stack;
    const frame = stack.pop();
    if (!frame) return;
    if (frame.idChildIndex >= 0) {
      const siblings = stack[stack.length - 1]?.idChildren;
      if (siblings) siblings[frame.idChildIndex] = { ...siblings[frame.idChildIndex], end: tag.end };
    }
    if (frame.content && !frame.hasChild && frame.textStart >= 0) this.emitContent(frame);
    this.close(frame, tag.start, tag.end, null);
    releaseFrame(frame);
  }

  onText(value: string, start: number, end: number): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) return;
    if (
      top.region === "asset" && top.owner >= 0 && (!top.content || top.content === HEURISTIC_CONTENT) &&
      isTextName(top.local)
    ) {
      const t = value.trim();
      if (t && STRING_KEY.test(t)) {
        this.stringKeys.push({
          owner: top.owner,
          key: keep(t),
          element: top.local,
          attribute: null,
          line: this.lines.lineOf(start),
        });
        return; // a display-text key, not an asset reference
      }
    }
    // An element with a child never has its text read (see onEnd): indentation between children is not
    // gathered (one concatenation per text run of every element, without a schema, was that garbage).
    if (!top.content || top.hasChild) return;
    if (top.textStart < 0) top.textStart = start;
    top.text += value;
    top.textEnd = end;
  }

  /** What a splice extraction found (see {@link extractSplice}). */
  splice(): SpliceExtraction {
    return {
      found: this.found,
      refs: this.refs,
      localIds: this.localIds,
      xincludes: this.xincludes,
      diagnostics: this.diagnostics,
    };
  }

  /** A well-formedness error (the tokenizer recovers and closes what it leaves open). */
  onError(error: { message: string; line: number; column: number; offset: number }): void {
    if (this.capped("xml-syntax", "error", error.line, error.column)) return;
    this.diagnostics.push({
      code: "xml-syntax",
      severity: "error",
      message: error.message,
      line: error.line,
      column: error.column,
    });
  }

  /**
   * True when a diagnostic of `code` and `severity` at `line`:`column` is past the record's cap: it is then
   * counted in its group instead of held (a splice's extraction holds all: a splice is typed afresh per link).
   */
  private capped(code: string, severity: RecordDiagnostic["severity"], line: number, column: number): boolean {
    const perCode = this.perCode;
    if (perCode === null) return false;
    const key = `${code}\u0000${severity}`;
    const n = (perCode.get(key) ?? 0) + 1;
    perCode.set(key, n);
    if (n <= RECORD_DIAGNOSTIC_CAP) return false;
    const group = this.omitted.get(key);
    if (group === undefined) this.omitted.set(key, { code, severity, count: 1, line, column });
    else group.count++;
    return true;
  }

  record(): FileRecord {
    const shared = <T>(list: T[]): readonly T[] => (list.length === 0 ? EMPTY : list);
    return {
      ...emptyRecord("xml"),
      rootName: this.rootName,
      fragment: this.fragment,
      foreign: this.foreign,
      assets: shared(this.assets),
      defines: shared(this.defines),
      includes: shared(this.includes),
      xincludes: shared(this.xincludes),
      refs: shared(this.refs),
      poidRefs: shared(this.poidRefs),
      localIds: shared(this.localIds),
      defineUses: shared(this.defineUses),
      stringKeys: shared(this.stringKeys),
      ranges: this.ranges,
      diagnostics: shared(this.diagnostics),
      omittedDiagnostics: this.omitted.size === 0 ? EMPTY : [...this.omitted.values()],
      lineCount: this.lines.lineCount,
      spliceText: (this.fragment && !this.foreign) || this.sameDocument ? this.text : null,
    };
  }

  /**
   * Ends a frame's range (at `rangeEnd`) and, for a top-level asset, the asset (at `assetEnd`, on line
   * `endLine`, by default the line of its last character).
   */
  private close(frame: Frame, rangeEnd: number, assetEnd: number, endLine: number | null): void {
    if (frame.rangeIndex >= 0) {
      const r = this.ranges[frame.rangeIndex];
      this.ranges[frame.rangeIndex] = { ...r, end: rangeEnd, idChildren: frame.idChildren ?? [] };
    }
    if (!this.fragment && frame.depth === 1 && frame.region === "asset" && frame.owner >= 0) {
      // Set in place: a copy per asset was garbage of the size of the asset list.
      const a = this.assets[frame.owner] as Mutable<AssetDecl>;
      a.end = assetEnd;
      a.endLine = endLine ?? this.lines.lineOf(Math.max(assetEnd - 1, 0));
    }
  }

  private pos(offset: number): { line: number; column: number } {
    const line = this.lines.lineOf(offset);
    return { line, column: this.lines.columnOn(line, offset) };
  }

  private diag(code: string, severity: RecordDiagnostic["severity"], message: string, offset: number): void {
    const line = this.lines.lineOf(offset);
    const column = this.lines.columnOn(line, offset);
    if (this.capped(code, severity, line, column)) return;
    this.diagnostics.push({ code, severity, message, line, column });
  }

  private startRoot(tag: XmlStartTag): void {
    const local = tag.local;
    if (this.rootName !== null) {
      // A second root (recovery goes on after the error): read like the first one's children.
      const again = newFrame(local, null, null, -1, 0, null, null, "root");
      if (this.fragment) this.pushRange(again, tag);
      this.stack.push(again);
      return;
    }
    this.rootName = local;
    this.fragment = local !== "AssetDeclaration";
    this.foreign = this.fragment && tag.uri !== ASSET_NS;
    if (this.foreign) {
      this.diag(
        "foreign-xml",
        "information",
        `the root <${tag.qname}> is ${
          tag.uri ? `in the namespace ${tag.uri}` : "in no namespace"
        }, not ${ASSET_NS}: not asset XML, so it is not checked against the asset schema`,
        tag.start,
      );
    }
    const type = this.fragment && !this.foreign && this.schema ? this.schema.rootElementType(local) : null;
    const frame = newFrame(local, type, this.tableOf(type), -1, 0, null, null, "root");
    this.pushRange(frame, tag);
    this.stack.push(frame);
    if (this.fragment && !this.foreign) {
      this.handleAttributes(tag, frame, null);
      this.addDefaults(tag, frame, null);
    }
  }

  /**
   * An element of a foreign file: only its structure is kept (element ranges and id-carrying children,
   * for an xi:include that names it anyway); no schema typing, warnings or references.
   */
  private startForeign(tag: XmlStartTag, parent: Frame): void {
    const frame = newFrame(tag.local, null, null, -1, tag.depth, parent.local, null, "other");
    this.pushRange(frame, tag);
    this.addIdChild(tag, frame, parent);
    this.stack.push(frame);
  }

  /**
   * An xi:include: its target (`href`, or with only an `xpointer` this document, XInclude 1.0 §3.1) and
   * where it sits. Its children are fallback content, never read.
   */
  private startXInclude(tag: XmlStartTag, owner: number, parentType: string | null, parentLocal: string | null): void {
    const href = findAttr(tag, "href")?.value.trim() ?? "";
    const xpointer = findAttr(tag, "xpointer")?.value ?? null;
    if (href !== "" || (xpointer !== null && xpointer.trim() !== "")) {
      const p = this.pos(tag.start);
      if (href === "") this.sameDocument = true;
      this.xincludes.push({
        href: keep(href),
        xpointer: xpointer === null ? null : keep(xpointer),
        rootLevel: tag.depth === 1 && !this.fragment,
        owner,
        offset: tag.start,
        line: p.line,
        column: p.column,
        parentType,
        parent: parentLocal,
      });
    } else {
      this.diag(
        "xinclude-href",
        "error",
        "xi:include has neither an href nor an xpointer (one of them names what it includes)",
        tag.start,
      );
    }
    this.stack.push(newFrame(tag.local, null, null, owner, tag.depth, parentLocal, null, "xi"));
  }

  /** The root in splice extraction: spliced itself (no xpointer), the container, or skipped. */
  private startSpliceRoot(tag: XmlStartTag): void {
    const ctx = this.context!;
    const local = tag.local;
    const first = this.rootName === null;
    if (first) this.rootName = local;
    this.fragment = true;
    // Not asset XML: nothing in it is typed, so nothing is selected.
    const foreign = local !== "AssetDeclaration" && tag.uri !== ASSET_NS;
    if (!first || foreign) {
      this.containerSeen = true;
      this.stack.push(newFrame(local, null, null, -1, 0, null, null, "skip"));
      return;
    }
    if (ctx.container === null) return this.startSpliced(tag);
    this.startSkipped(tag);
  }

  /** An element outside the selection: not read, unless it is the xpointer's container. */
  private startSkipped(tag: XmlStartTag): void {
    const container = this.context!.container;
    const isContainer = !this.containerSeen && container !== null && tag.local === container;
    if (isContainer) {
      this.containerSeen = true;
      this.found = true;
    }
    this.stack.push(newFrame(tag.local, null, null, -1, tag.depth, null, null, isContainer ? "select" : "skip"));
  }

  /** A spliced element: typed as a child of the splice context's element (or as a top-level asset). */
  private startSpliced(tag: XmlStartTag): void {
    const ctx = this.context!;
    const { schema } = this;
    this.found = true;
    if (isXInclude(tag)) return this.startXInclude(tag, 0, ctx.parentType, ctx.parent);
    let type: string | null = null;
    let table: TypeTable | null = null;
    let content: ContentMode | null = schema ? null : HEURISTIC_CONTENT;
    if (schema && ctx.rootLevel) {
      type = schema.rootElementType(tag.local);
      table = this.tableOf(type);
      content = table === null ? null : table.text;
      if (!type) {
        this.diag(
          "unknown-element",
          "warning",
          `<${tag.local}> is not an asset type declared in the schema`,
          tag.start,
        );
      }
    } else if (schema) {
      const child = ctx.parentType === null
        ? schema.untypedChild(tag.local)
        : schema.typeTable(ctx.parentType).child(tag.local);
      if (child) {
        type = child.info.type;
        table = child.table;
        content = child.text;
      } else if (!schema.isKnownElement(tag.local)) {
        this.diag("unknown-element", "warning", `element <${tag.local}> is not declared in the schema`, tag.start);
      }
    }
    const frame = newFrame(tag.local, type, table, 0, tag.depth, ctx.parent, content, "asset");
    frame.top = ctx.rootLevel;
    this.stack.push(frame);
    this.handleAttributes(tag, frame, ctx.parent);
    this.addDefaults(tag, frame, ctx.parent);
  }

  /** A top-level element of an `AssetDeclaration`: an asset (reported when it has no id or a duplicate one). */
  private startAsset(tag: XmlStartTag, parent: Frame): void {
    const { schema, assets } = this;
    const local = tag.local;
    const idAttr = findAttr(tag, "id");
    const id = idAttr ? idAttr.value.trim() : "";
    let owner = -1;
    const type = schema ? schema.rootElementType(local) : null;
    if (schema && !type) {
      this.diag("unknown-element", "warning", `<${local}> is not an asset type declared in the schema`, tag.start);
    }
    if (!id) {
      this.diag("missing-id", "error", `<${local}> has no id`, tag.start);
    } else {
      const p = this.pos(idAttr!.valueStart);
      const first = this.seenAssets.firstOrAdd(local, id, assets.length);
      if (first >= 0) {
        this.diag(
          "duplicate-id",
          "error",
          `${local} "${id}" is defined twice in this file (first on line ${assets[first].line})`,
          idAttr!.valueStart,
        );
      }
      owner = assets.length;
      const inherit = findAttrCaseless(tag, "inheritFrom");
      assets.push({
        type: local,
        id: keep(id),
        line: p.line,
        column: p.column,
        startLine: this.lines.lineOf(tag.start),
        endLine: this.lines.lineOf(tag.end),
        start: tag.start,
        end: tag.end,
        inheritFrom: inherit ? keep(inherit.value.trim()) || null : null,
      });
    }
    const table = this.tableOf(type);
    const content = schema ? (table === null ? null : table.text) : HEURISTIC_CONTENT;
    const frame = newFrame(local, type, table, owner, 1, parent.local, content, "asset");
    frame.top = true;
    this.pushRange(frame, tag);
    this.stack.push(frame);
    this.handleAttributes(tag, frame, parent.local);
    this.addDefaults(tag, frame, parent.local);
  }

  /** An element inside an asset (or anywhere in a fragment): typed by its parent's schema type. */
  private startInAsset(tag: XmlStartTag, parent: Frame): void {
    const { schema } = this;
    const local = tag.local;
    let child: ChildFacts | null = null;
    if (schema) {
      child = parent.table === null ? schema.untypedChild(local) : parent.table.child(local);
      if (child === null && !schema.isKnownElement(local)) {
        this.diag("unknown-element", "warning", `element <${local}> is not declared in the schema`, tag.start);
      }
    }
    const frame = child === null
      ? newFrame(local, null, null, parent.owner, tag.depth, parent.local, schema ? null : HEURISTIC_CONTENT, "asset")
      : newFrame(local, child.info.type, child.table, parent.owner, tag.depth, parent.local, child.text, "asset");
    if (this.fragment && !this.context) this.pushRange(frame, tag);
    this.addIdChild(tag, frame, parent);
    this.stack.push(frame);
    this.handleAttributes(tag, frame, parent.local);
    this.addDefaults(tag, frame, parent.local);
  }

  /** A child with an id of an element whose range collects them (a root-level xi:include container's). */
  private addIdChild(tag: XmlStartTag, frame: Frame, parent: Frame): void {
    if (!parent.idChildren) return;
    const id = findAttr(tag, "id");
    if (!id) return;
    const kept = keptTrimmed(this.text, id);
    if (!kept) return;
    const p = this.pos(id.valueStart);
    frame.idChildIndex = parent.idChildren.length;
    parent.idChildren.push({
      type: tag.local,
      id: kept,
      line: p.line,
      column: p.column,
      offset: id.valueStart,
      start: tag.start,
      end: tag.end,
    });
  }

  /** The first element of each name in a fragment (and each top-level asset) gets an offset range. */
  private pushRange(frame: Frame, tag: XmlStartTag): void {
    const { ranges } = this;
    if (this.rangeByName.has(tag.local)) return;
    this.rangeByName.set(tag.local, ranges.length);
    frame.rangeIndex = ranges.length;
    frame.idChildren = [];
    ranges.push({ local: tag.local, start: tag.end, end: tag.end, line: this.lines.lineOf(tag.start), idChildren: [] });
  }

  /** The schema's table of `type` (null without a type or a schema). */
  private tableOf(type: string | null): TypeTable | null {
    return type === null || this.schema === null ? null : this.schema.typeTable(type);
  }

  private emitContent(frame: Frame): void {
    const value = frame.text;
    if (isBlank(value, 0, value.length) || value.indexOf("<") >= 0) return;
    const { textStart, textEnd } = frame;
    // Without entity references or CDATA the raw text differs from the value only by line-break
    // normalisation, so tokens taken from the raw text have exact offsets.
    const exact = !hasAmpOrLt(this.text, textStart, textEnd);
    const mode = frame.content!;
    const heuristic = mode === HEURISTIC_CONTENT;
    this.addTokens(
      exact ? this.text : value,
      exact ? textStart : 0,
      exact ? textEnd : value.length,
      mode.isList,
      textStart,
      exact,
      frame.owner,
      heuristic ? "heuristic" : "content",
      heuristic ? null : mode.refType,
      frame.local,
      frame.parentLocal,
      null,
    );
    if (!heuristic || value.indexOf("$") >= 0) {
      this.recordDefineUses(value, frame.owner, frame.local, null, frame.textStart);
    }
  }

  private addInclude(tag: XmlStartTag): void {
    const typeAttr = findAttr(tag, "type");
    const sourceAttr = findAttr(tag, "source");
    const rawType = typeAttr ? typeAttr.value : null;
    const type: IncludeType | null = rawType === "all" || rawType === "instance" || rawType === "reference"
      ? rawType
      : null;
    if (!sourceAttr || !sourceAttr.value.trim()) {
      this.diag("include-source", "error", "<Include> has no source attribute", tag.start);
      return;
    }
    if (type === null) {
      this.diag(
        "include-type",
        "error",
        rawType === null
          ? `<Include source="${sourceAttr.value}"> has no type; use all, instance or reference`
          : `<Include> type "${rawType}" is not one of all, instance, reference`,
        typeAttr ? typeAttr.valueStart : tag.start,
      );
    }
    const p = this.pos(sourceAttr.valueStart);
    this.includes.push({
      type,
      rawType: rawType === null ? null : keep(rawType),
      source: keep(sourceAttr.value.trim()),
      line: p.line,
      column: p.column,
    });
  }

  private addDefine(tag: XmlStartTag): void {
    const name = findAttr(tag, "name");
    if (!name || !name.value.trim()) {
      this.diag("define-name", "error", "<Define> has no name", tag.start);
      return;
    }
    const value = findAttr(tag, "value");
    const p = this.pos(name.valueStart);
    this.defines.push({
      name: keep(name.value.trim()),
      value: value ? keep(value.value) : "",
      line: p.line,
      column: p.column,
    });
  }

  private handleAttributes(tag: XmlStartTag, frame: Frame, parentLocal: string | null): void {
    const { schema } = this;
    const type = frame.type;
    const owner = frame.owner;
    const topLevel = frame.top;
    for (const attr of tag.attributes) {
      if (attr.prefix || attr.qname === "xmlns") continue;
      const name = attr.local;
      // A verbatim value is read in place: most values of a big file are never sliced out of it.
      const { verbatim, valueStart } = attr;
      if (verbatim ? (attr.marks & VALUE_HAS_DOLLAR) !== 0 : attr.value.indexOf("$") >= 0) {
        this.recordDefineUses(attr.value, owner, tag.local, name, valueStart);
      }
      if (
        owner >= 0 && (verbatim ? (attr.marks & VALUE_HAS_INNER_COLON) !== 0 : attr.value.indexOf(":") > 0) &&
        isTextName(name) && STRING_KEY.test(attr.value)
      ) {
        this.stringKeys.push({
          owner,
          key: keep(attr.value),
          element: tag.local,
          attribute: name,
          line: this.lines.lineOf(attr.valueStart),
        });
        if (!schema) continue; // heuristic mode: a display-text key is not an asset reference
      }
      if (name === "id") {
        if (!topLevel) this.idAttribute(tag, frame, attr, parentLocal);
        continue;
      }
      if (name.length === 11 && name.toLowerCase() === "inheritfrom") {
        const isAsset = topLevel || (frame.table !== null && frame.table.isAsset);
        const value = attr.value;
        const trimmed = value.trim();
        if (isAsset && trimmed && !isExpressionValue(trimmed)) {
          const at = attr.valueStart + leading(value);
          this.addRef(
            owner,
            "inheritFrom",
            keep(trimmed),
            null,
            type ?? tag.local,
            tag.local,
            parentLocal,
            attr.qname,
            at,
          );
        }
        if (isAsset || !schema) continue;
      }
      if (!schema) {
        this.heuristicAttribute(tag, owner, attr, parentLocal);
        continue;
      }
      if (type) this.typedAttribute(tag, frame, attr, parentLocal);
    }
  }

  /** An attribute without a schema: each token that looks like an id is a candidate reference. */
  private heuristicAttribute(tag: XmlStartTag, owner: number, attr: XmlAttribute, parentLocal: string | null): void {
    const text = this.text;
    const { verbatim, valueStart, valueEnd } = attr;
    // The decoded value's positions (after attribute-value normalisation), as always in this mode: a
    // verbatim value's are the document's own.
    const value = verbatim ? text : attr.value;
    const from = verbatim ? valueStart : 0;
    const to = verbatim ? valueEnd : value.length;
    // A verbatim value without a space or a character outside ASCII is one token: one that does not
    // start like an id (a coordinate, a count, an empty value) is not read at all.
    if (
      verbatim && (attr.marks & (VALUE_HAS_SPACE | VALUE_HAS_NON_ASCII)) === 0 &&
      (from === to || !isIdStart(text.charCodeAt(from)))
    ) return;
    this.addTokens(
      value,
      from,
      to,
      true,
      valueStart,
      true,
      owner,
      "heuristic",
      null,
      tag.local,
      parentLocal,
      attr.local,
    );
  }

  /**
   * An `id` below the top level: a reference when the schema types it as one to another kind of asset,
   * else a pipeline-local id (a module's own id, or a Poid-typed id naming another kind of object).
   */
  private idAttribute(tag: XmlStartTag, frame: Frame, attr: XmlAttribute, parentLocal: string | null): void {
    const facts = frame.table === null ? undefined : frame.table.attributes.get("id");
    const info = facts === undefined ? null : facts.info;
    // The trimmed value, kept (read in place when it can be: a map's thousands of ids).
    const trimmed = keptTrimmed(this.text, attr);
    if (info && info.refType && !info.isPoid && !facts!.ownTypeIsTarget) {
      if (trimmed && !isExpressionValue(trimmed)) {
        const at = attr.valueStart + leading(attr.value);
        this.addRef(frame.owner, "attribute", trimmed, info.refType, null, tag.local, parentLocal, "id", at);
      }
    } else if (
      trimmed || (info && info.refType && info.isPoid && !facts!.ownTypeIsTarget)
    ) {
      // A Poid-typed id naming another kind of object is pipeline-local too (kept even when empty).
      this.localIds.push({
        owner: frame.owner,
        element: intern(tag.local),
        id: trimmed,
        offset: attr.valueStart,
        line: this.lines.lineOf(attr.valueStart),
      });
    }
  }

  /** An attribute read through the schema: unknown (a warning), not a reference, a Poid, or references. */
  private typedAttribute(tag: XmlStartTag, frame: Frame, attr: XmlAttribute, parentLocal: string | null): void {
    const type = frame.type!;
    const owner = frame.owner;
    const name = attr.local;
    const facts = frame.table!.attributes.get(name);
    if (facts === undefined) {
      this.diag(
        "unknown-attribute",
        "warning",
        `attribute ${name} is not declared for <${tag.local}> (type ${type})`,
        attr.nameStart,
      );
      return;
    }
    const info = facts.info;
    if (facts.reading === "plain") return;
    if (facts.reading === "runtime-name") return this.runtimeName(tag, frame, attr, facts, parentLocal);
    if (facts.reading === "poid") {
      const trimmed = attr.value.trim();
      if (trimmed && !isExpressionValue(trimmed)) {
        const p = this.pos(attr.valueStart);
        this.poidRefs.push({
          owner,
          value: keep(trimmed),
          element: intern(tag.local),
          attribute: intern(name),
          offset: attr.valueStart,
          line: p.line,
          column: p.column,
        });
      }
      return;
    }
    const { valueStart, valueEnd } = attr;
    // Attribute-value normalisation turns tabs and line breaks into spaces: tokens of the raw value
    // (when it has no entity references) are the same, at their exact offsets.
    const exact = attr.verbatim || !hasChar(this.text, 38, /* & */ valueStart, valueEnd);
    const value = exact ? this.text : attr.value;
    this.addTokens(
      value,
      exact ? valueStart : 0,
      exact ? valueEnd : value.length,
      info.isList,
      valueStart,
      exact,
      owner,
      "attribute",
      info.refType,
      tag.local,
      parentLocal,
      name,
    );
  }

  /**
   * A plain-string attribute the engine looks up by id at run time (the schema's runtime-name table):
   * each token is a reference of kind `name` to the table's target type.
   */
  private runtimeName(
    tag: XmlStartTag,
    frame: Frame,
    attr: XmlAttribute,
    facts: AttributeFacts,
    parentLocal: string | null,
  ): void {
    const { valueStart, valueEnd } = attr;
    const exact = attr.verbatim || !hasChar(this.text, 38, /* & */ valueStart, valueEnd);
    const value = exact ? this.text : attr.value;
    this.addTokens(
      value,
      exact ? valueStart : 0,
      exact ? valueEnd : value.length,
      facts.info.isList,
      valueStart,
      exact,
      frame.owner,
      "name",
      facts.runtimeTarget,
      tag.local,
      parentLocal,
      attr.local,
    );
  }

  /**
   * The XSD defaults of the reference attributes an element omits: the compiler writes them in, so each
   * is a reference of kind `default`, placed at the element's start tag. A top-level asset with
   * `inheritFrom` is left out: what it omits comes from its parent (whose own default, if any, counts there).
   */
  private addDefaults(tag: XmlStartTag, frame: Frame, parentLocal: string | null): void {
    if (frame.table === null) return;
    const defaults = frame.table.defaults;
    if (defaults.length === 0) return;
    if (frame.top && findAttrCaseless(tag, "inheritFrom")) return;
    for (const a of defaults) {
      if (findAttr(tag, a.name)) continue;
      const value = a.defaultValue!;
      // Every token is placed at the element's start tag.
      this.addTokens(
        value,
        0,
        value.length,
        a.isList,
        tag.start,
        false,
        frame.owner,
        "default",
        a.refType,
        tag.local,
        parentLocal,
        a.name,
      );
    }
  }

  /**
   * The reference sites of the tokens of `src[from, to)` (whitespace-separated when `list`, else the
   * trimmed whole), read in place: a token that is an expression (or, for `heuristic`, does not look like
   * an id) is never copied. Each is placed at `base` plus its distance from `from` when `exactOffsets`,
   * else at `base`.
   */
  private addTokens(
    src: string,
    from: number,
    to: number,
    list: boolean,
    base: number,
    exactOffsets: boolean,
    owner: number,
    kind: RefRecord["kind"],
    refType: string | null,
    element: string,
    parent: string | null,
    attribute: string | null,
  ): void {
    let i = skipSpace(src, from, to);
    const end = list ? to : trimmedEnd(src, i, to);
    const heuristic = kind === "heuristic";
    while (i < end) {
      let tokenEnd: number;
      let take: boolean;
      if (heuristic) {
        // One pass finds the token's end and tests it (see scanIdToken); not a list, the token is the
        // whole trimmed range, an id only if no space cuts it.
        const r = scanIdToken(src, i, end);
        const at = r >= 0 ? r : ~r;
        take = r >= 0 && (list || at === end);
        tokenEnd = list ? at : end;
      } else {
        tokenEnd = list ? skipToken(src, i, end) : end;
        take = true;
      }
      const c = src.charCodeAt(i);
      if (take && c !== 36 /* $ */ && c !== 61 /* = */) {
        const at = exactOffsets ? base + (i - from) : base;
        this.addRef(owner, kind, keepRange(src, i, tokenEnd), refType, null, element, parent, attribute, at);
      }
      i = list ? skipSpace(src, tokenEnd, end) : end;
    }
  }

  /** One reference site; `value` is a kept string (see {@link keep}). */
  private addRef(
    owner: number,
    kind: RefRecord["kind"],
    value: string,
    refType: string | null,
    selfType: string | null,
    element: string,
    parent: string | null,
    attribute: string | null,
    offset: number,
  ): void {
    const line = this.lines.lineOf(offset);
    this.refs.push({
      owner,
      kind,
      value,
      refType,
      selfType,
      element: intern(element),
      parent: parent === null ? null : intern(parent),
      attribute: attribute === null ? null : intern(attribute),
      offset,
      line,
      column: this.lines.columnOn(line, offset),
    });
  }

  private recordDefineUses(
    value: string,
    owner: number,
    element: string,
    attribute: string | null,
    base: number,
  ): void {
    if (value.indexOf("$") < 0) return;
    DEFINE_USE.lastIndex = 0;
    for (let m = DEFINE_USE.exec(value); m; m = DEFINE_USE.exec(value)) {
      const offset = base + m.index;
      const p = this.pos(offset);
      this.defineUses.push({ owner, name: keep(m[1]), element, attribute, offset, line: p.line, column: p.column });
    }
  }
}

/**
 * Finished frames, reused: one frame per element was the largest share of the garbage a big file makes
 * (a frame is dead once its end is handled; nothing keeps one). Bounded: a document nests a few levels.
 */
const framePool: Frame[] = [];
const FRAME_POOL_LIMIT = 256;

function releaseFrame(frame: Frame): void {
  if (framePool.length < FRAME_POOL_LIMIT) framePool.push(frame);
}

function newFrame(
  local: string,
  type: string | null,
  table: TypeTable | null,
  owner: number,
  depth: number,
  parentLocal: string | null,
  content: ContentMode | null,
  region: Region,
): Frame {
  const f = framePool.pop();
  if (f === undefined) {
    return {
      local,
      type,
      table,
      owner,
      depth,
      top: false,
      parentLocal,
      content,
      region,
      hasChild: false,
      text: "",
      textStart: -1,
      textEnd: -1,
      rangeIndex: -1,
      idChildren: null,
      idChildIndex: -1,
    };
  }
  f.local = local;
  f.type = type;
  f.table = table;
  f.owner = owner;
  f.depth = depth;
  f.top = false;
  f.parentLocal = parentLocal;
  f.content = content;
  f.region = region;
  f.hasChild = false;
  f.text = "";
  f.textStart = -1;
  f.textEnd = -1;
  f.rangeIndex = -1;
  f.idChildren = null;
  f.idChildIndex = -1;
  return f;
}

function leading(value: string): number {
  return value.length - value.trimStart().length;
}

/** An xi:include element (in the XInclude namespace, or any `include` with an `href`, as the peer reads them). */
function isXInclude(tag: XmlStartTag): boolean {
  return tag.local === "include" && (tag.uri === XINCLUDE_NS || findAttr(tag, "href") !== null);
}

function findAttr(tag: XmlStartTag, local: string): XmlAttribute | null {
  for (const a of tag.attributes) if (a.local === local && !a.prefix) return a;
  return null;
}

function findAttrCaseless(tag: XmlStartTag, local: string): { value: string; valueStart: number } | null {
  const want = local.toLowerCase();
  for (const a of tag.attributes) if (!a.prefix && a.local.toLowerCase() === want) return a;
  return null;
}
