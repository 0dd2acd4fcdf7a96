/**
 * Full extraction of one XML document into a {@link FileRecord}: top-level assets, defines, includes,
 * xi:includes, reference sites typed by the schema (or heuristic candidates without one), Poid
 * references, pipeline-local ids, `$DEFINE` uses and document-level diagnostics.
 * Depends only on the text and the schema: no other file is consulted.
 */
import { LineMap } from "../xml/line-map.ts";
import { parseXml } from "../xml/tokenizer.ts";
import type { XmlEndTag, XmlStartTag } from "../xml/types.ts";
import type { SchemaQueries } from "../schema/model.ts";
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
  type PoidRef,
  type RecordDiagnostic,
  type RefRecord,
  type StringKeyUse,
  type XIncludeDecl,
} from "./records.ts";

export const XINCLUDE_NS = "http://www.w3.org/2001/XInclude";
const STRUCTURAL = new Set(["Tags", "Includes", "Defines"]);
const DEFINE_USE = /\$([A-Za-z_][A-Za-z0-9_]*)/g;
/** Values that could name an asset when no schema says which attributes are references. */
const HEURISTIC_VALUE = /^(?:[A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*$/;
const ENUM_LIKE = /^[A-Z0-9_]+$/;
const NOT_IDS = new Set(["true", "false", "yes", "no", "none", "null"]);
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

interface Frame {
  readonly local: string;
  readonly type: string | null;
  readonly owner: number;
  readonly depth: number;
  readonly parentLocal: string | null;
  /** What the element's text means, when it is collected for references. */
  readonly content: ContentMode | null;
  readonly region: "asset" | "includes" | "defines" | "tags" | "xi" | "root" | "other";
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

interface ContentMode {
  readonly kind: "typed" | "heuristic";
  readonly refType: string | null;
  readonly isList: boolean;
}

// Element, attribute and type names repeat hundreds of thousands of times across a mod; the parser hands
// out a fresh substring each time. One shared copy each keeps the records (and the heap) small.
const interned = new Map<string, string>();

/** The shared copy of a name. */
export function intern(s: string): string {
  const hit = interned.get(s);
  if (hit !== undefined) return hit;
  if (interned.size < 200_000) interned.set(s, s);
  return s;
}

/** True when `value` is an expression or define use, never an asset reference. */
export function isExpressionValue(value: string): boolean {
  const c = value.charCodeAt(0);
  return c === 36 /* $ */ || c === 61 /* = */;
}

/** True when `value` could be an asset id in heuristic (schema-less) mode. */
export function looksLikeAssetId(value: string): boolean {
  if (value.length < 2 || !HEURISTIC_VALUE.test(value)) return false;
  if (NOT_IDS.has(value.toLowerCase())) return false;
  const last = value.slice(value.lastIndexOf(":") + 1);
  return !ENUM_LIKE.test(last);
}

/**
 * Extracts the record of an XML document.
 * @param text decoded text (BOM removed)
 * @param schema the schema, or null for heuristic mode
 */
export function extractXmlRecord(text: string, schema: SchemaQueries | null): FileRecord {
  const lines = new LineMap(text);
  const assets: (AssetDecl & { end: number; endLine: number })[] = [];
  const defines: DefineDecl[] = [];
  const includes: IncludeDecl[] = [];
  const xincludes: XIncludeDecl[] = [];
  const refs: RefRecord[] = [];
  const poidRefs: PoidRef[] = [];
  const localIds: LocalId[] = [];
  const defineUses: DefineUse[] = [];
  const stringKeys: StringKeyUse[] = [];
  const ranges: (ElementRange & { end: number })[] = [];
  const rangeByName = new Map<string, number>();
  const diagnostics: RecordDiagnostic[] = [];
  const seenAssets = new Map<string, number>();
  const stack: Frame[] = [];
  let rootName: string | null = null;
  let fragment = false;

  const pos = (offset: number) => lines.position(offset);
  const diag = (code: string, severity: RecordDiagnostic["severity"], message: string, offset: number): void => {
    const p = pos(offset);
    diagnostics.push({ code, severity, message, line: p.line, column: p.column });
  };

  const addRef = (
    owner: number,
    kind: RefRecord["kind"],
    value: string,
    refType: string | null,
    selfType: string | null,
    element: string,
    parent: string | null,
    attribute: string | null,
    offset: number,
  ): void => {
    const p = pos(offset);
    refs.push({
      owner,
      kind,
      value,
      refType,
      selfType,
      element: intern(element),
      parent: parent === null ? null : intern(parent),
      attribute: attribute === null ? null : intern(attribute),
      offset,
      line: p.line,
      column: p.column,
    });
  };

  /** Splits a whitespace-separated value into tokens with their offsets (relative to `base`). */
  const eachToken = (raw: string, base: number, list: boolean, fn: (token: string, offset: number) => void): void => {
    if (!list) {
      const lead = raw.length - raw.trimStart().length;
      const t = raw.trim();
      if (t) fn(t, base + lead);
      return;
    }
    const re = /\S+/g;
    for (let m = re.exec(raw); m; m = re.exec(raw)) fn(m[0], base + m.index);
  };

  const recordDefineUses = (
    value: string,
    owner: number,
    element: string,
    attribute: string | null,
    base: number,
  ): void => {
    if (value.indexOf("$") < 0) return;
    DEFINE_USE.lastIndex = 0;
    for (let m = DEFINE_USE.exec(value); m; m = DEFINE_USE.exec(value)) {
      const offset = base + m.index;
      const p = pos(offset);
      defineUses.push({ owner, name: m[1], element, attribute, offset, line: p.line, column: p.column });
    }
  };

  const onStart = (tag: XmlStartTag): void => {
    const parent = stack.length ? stack[stack.length - 1] : null;
    if (parent) parent.hasChild = true;
    const depth = tag.depth;
    const local = tag.local;

    if (depth === 0) {
      rootName = local;
      fragment = local !== "AssetDeclaration";
      const type = fragment && schema ? schema.rootElementType(local) : null;
      const frame = newFrame(local, type, -1, 0, null, null, "root");
      pushRange(frame, tag);
      stack.push(frame);
      if (fragment) handleAttributes(tag, frame, null);
      return;
    }

    const isXi = local === "include" && (tag.uri === XINCLUDE_NS || findAttr(tag, "href") !== null);
    if (isXi) {
      const href = findAttr(tag, "href");
      const owner = parent ? parent.owner : -1;
      if (href !== null && href.value.trim() !== "") {
        const p = pos(tag.start);
        xincludes.push({
          href: href.value.trim(),
          xpointer: findAttr(tag, "xpointer")?.value ?? null,
          rootLevel: depth === 1 && !fragment,
          owner,
          offset: tag.start,
          line: p.line,
          column: p.column,
        });
      } else {
        diag("xinclude-href", "error", "xi:include has no href attribute", tag.start);
      }
      stack.push(newFrame(local, null, owner, depth, parent?.local ?? null, null, "xi"));
      return;
    }

    const region = parent?.region ?? "other";
    if (region === "xi") {
      stack.push(newFrame(local, null, parent!.owner, depth, parent!.local, null, "xi"));
      return;
    }

    if (!fragment && depth === 1) {
      if (STRUCTURAL.has(local)) {
        const r = local === "Includes" ? "includes" : local === "Defines" ? "defines" : "tags";
        stack.push(newFrame(local, null, -1, depth, rootName, null, r));
        return;
      }
      startAsset(tag, parent!);
      return;
    }

    if (region === "includes") {
      if (depth === 2 && local === "Include") addInclude(tag);
      stack.push(newFrame(local, null, -1, depth, parent!.local, null, "includes"));
      return;
    }
    if (region === "defines") {
      if (depth === 2 && local === "Define") addDefine(tag);
      stack.push(newFrame(local, null, -1, depth, parent!.local, null, "defines"));
      return;
    }
    if (region === "tags") {
      stack.push(newFrame(local, null, -1, depth, parent!.local, null, "tags"));
      return;
    }

    // An element inside an asset (or anywhere in a fragment).
    let type: string | null = null;
    let elementRefType: string | null = null;
    if (schema) {
      const child = schema.childElementType(parent!.type, local);
      if (child) {
        type = child.type;
        elementRefType = child.refType;
      } else if (!schema.isKnownElement(local)) {
        diag("unknown-element", "warning", `element <${local}> is not declared in the schema`, tag.start);
      }
    }
    const owner = parent!.owner;
    const frame = newFrame(local, type, owner, depth, parent!.local, contentMode(type, elementRefType), "asset");
    if (fragment) pushRange(frame, tag);
    if (parent!.idChildren) {
      const id = findAttr(tag, "id");
      if (id && id.value.trim()) {
        const p = pos(id.valueStart);
        frame.idChildIndex = parent!.idChildren.length;
        parent!.idChildren.push({
          type: local,
          id: id.value.trim(),
          line: p.line,
          column: p.column,
          offset: id.valueStart,
          start: tag.start,
          end: tag.end,
        });
      }
    }
    stack.push(frame);
    handleAttributes(tag, frame, parent!.local);
  };

  const onEnd = (tag: XmlEndTag): void => {
    const frame = stack.pop();
    if (!frame) return;
    if (frame.idChildIndex >= 0) {
      const siblings = stack[stack.length - 1]?.idChildren;
      if (siblings) siblings[frame.idChildIndex] = { ...siblings[frame.idChildIndex], end: tag.end };
    }
    if (frame.rangeIndex >= 0) {
      const r = ranges[frame.rangeIndex];
      ranges[frame.rangeIndex] = { ...r, end: tag.start, idChildren: frame.idChildren ?? [] };
    }
    if (frame.content && !frame.hasChild && frame.textStart >= 0) {
      emitContent(frame);
    }
    if (!fragment && frame.depth === 1 && frame.region === "asset" && frame.owner >= 0) {
      const a = assets[frame.owner];
      assets[frame.owner] = { ...a, end: tag.end, endLine: pos(Math.max(tag.end - 1, 0)).line };
    }
  };

  const onText = (value: string, start: number, end: number): void => {
    const top = stack[stack.length - 1];
    if (!top) return;
    if (
      top.region === "asset" && top.owner >= 0 && (!top.content || top.content.kind === "heuristic") &&
      isTextName(top.local)
    ) {
      const t = value.trim();
      if (t && STRING_KEY.test(t)) {
        stringKeys.push({ owner: top.owner, key: t, element: top.local, attribute: null, line: pos(start).line });
        return; // a display-text key, not an asset reference
      }
    }
    if (!top.content) return;
    if (top.textStart < 0) top.textStart = start;
    top.text += value;
    top.textEnd = end;
  };

  function newFrame(
    local: string,
    type: string | null,
    owner: number,
    depth: number,
    parentLocal: string | null,
    content: ContentMode | null,
    region: Frame["region"],
  ): Frame {
    return {
      local,
      type,
      owner,
      depth,
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

  function pushRange(frame: Frame, tag: XmlStartTag): void {
    if (rangeByName.has(tag.local)) return;
    rangeByName.set(tag.local, ranges.length);
    frame.rangeIndex = ranges.length;
    frame.idChildren = [];
    ranges.push({ local: tag.local, start: tag.end, end: tag.end, line: pos(tag.start).line, idChildren: [] });
  }

  function contentMode(type: string | null, elementRefType: string | null): ContentMode | null {
    if (!schema) return { kind: "heuristic", refType: null, isList: true };
    if (elementRefType) {
      const info = type ? schema.content(type) : null;
      if (info?.isPoid) return null;
      return { kind: "typed", refType: elementRefType, isList: info?.isList ?? false };
    }
    if (!type) return null;
    const info = schema.content(type);
    if (!info || !info.refType || info.isPoid) return null;
    return { kind: "typed", refType: info.refType, isList: info.isList };
  }

  function emitContent(frame: Frame): void {
    const value = frame.text;
    if (!value.trim() || value.indexOf("<") >= 0) return;
    const raw = text.slice(frame.textStart, frame.textEnd);
    // Without entity references or CDATA the raw text differs from the value only by line-break
    // normalisation, so tokens taken from the raw text have exact offsets.
    const exact = raw.indexOf("&") < 0 && raw.indexOf("<") < 0;
    const mode = frame.content!;
    eachToken(exact ? raw : value, frame.textStart, mode.isList, (token, offset) => {
      if (isExpressionValue(token)) return;
      const at = exact ? offset : frame.textStart;
      if (mode.kind === "heuristic") {
        if (looksLikeAssetId(token)) {
          addRef(frame.owner, "heuristic", token, null, null, frame.local, frame.parentLocal, null, at);
        }
        return;
      }
      addRef(frame.owner, "content", token, mode.refType, null, frame.local, frame.parentLocal, null, at);
    });
    if (mode.kind === "typed" || value.indexOf("$") >= 0) {
      recordDefineUses(value, frame.owner, frame.local, null, frame.textStart);
    }
  }

  function startAsset(tag: XmlStartTag, parent: Frame): void {
    const local = tag.local;
    const idAttr = findAttr(tag, "id");
    const id = idAttr ? idAttr.value.trim() : "";
    let owner = -1;
    const type = schema ? schema.rootElementType(local) : null;
    if (schema && !type) {
      diag("unknown-element", "warning", `<${local}> is not an asset type declared in the schema`, tag.start);
    }
    if (!id) {
      diag("missing-id", "error", `<${local}> has no id`, tag.start);
    } else {
      const p = pos(idAttr!.valueStart);
      const key = `${local}\u0000${id.toLowerCase()}`;
      const first = seenAssets.get(key);
      if (first !== undefined) {
        diag(
          "duplicate-id",
          "error",
          `${local} "${id}" is defined twice in this file (first on line ${assets[first].line})`,
          idAttr!.valueStart,
        );
      } else {
        seenAssets.set(key, assets.length);
      }
      owner = assets.length;
      const inherit = findAttrCaseless(tag, "inheritFrom");
      assets.push({
        type: local,
        id,
        line: p.line,
        column: p.column,
        startLine: pos(tag.start).line,
        endLine: pos(tag.end).line,
        start: tag.start,
        end: tag.end,
        inheritFrom: inherit ? inherit.value.trim() || null : null,
      });
    }
    const frame = newFrame(local, type, owner, 1, parent.local, contentMode(type, null), "asset");
    pushRange(frame, tag);
    stack.push(frame);
    handleAttributes(tag, frame, parent.local);
  }

  function addInclude(tag: XmlStartTag): void {
    const typeAttr = findAttr(tag, "type");
    const sourceAttr = findAttr(tag, "source");
    const rawType = typeAttr ? typeAttr.value : null;
    const type: IncludeType | null = rawType === "all" || rawType === "instance" || rawType === "reference"
      ? rawType
      : null;
    if (!sourceAttr || !sourceAttr.value.trim()) {
      diag("include-source", "error", "<Include> has no source attribute", tag.start);
      return;
    }
    if (type === null) {
      diag(
        "include-type",
        "error",
        rawType === null
          ? `<Include source="${sourceAttr.value}"> has no type; use all, instance or reference`
          : `<Include> type "${rawType}" is not one of all, instance, reference`,
        typeAttr ? typeAttr.valueStart : tag.start,
      );
    }
    const p = pos(sourceAttr.valueStart);
    includes.push({ type, rawType, source: sourceAttr.value.trim(), line: p.line, column: p.column });
  }

  function addDefine(tag: XmlStartTag): void {
    const name = findAttr(tag, "name");
    if (!name || !name.value.trim()) {
      diag("define-name", "error", "<Define> has no name", tag.start);
      return;
    }
    const value = findAttr(tag, "value");
    const p = pos(name.valueStart);
    defines.push({ name: name.value.trim(), value: value ? value.value : "", line: p.line, column: p.column });
  }

  function handleAttributes(tag: XmlStartTag, frame: Frame, parentLocal: string | null): void {
    const type = frame.type;
    const owner = frame.owner;
    const depth = tag.depth;
    const topLevel = !fragment && depth === 1;
    for (const attr of tag.attributes) {
      if (attr.prefix || attr.qname === "xmlns") continue;
      const name = attr.local;
      const value = attr.value;
      if (value.indexOf("$") >= 0) recordDefineUses(value, owner, tag.local, name, attr.valueStart);
      if (owner >= 0 && value.indexOf(":") > 0 && isTextName(name) && STRING_KEY.test(value)) {
        stringKeys.push({ owner, key: value, element: tag.local, attribute: name, line: pos(attr.valueStart).line });
        if (!schema) continue; // heuristic mode: a display-text key is not an asset reference
      }
      if (name === "id") {
        if (topLevel) continue;
        const info = schema && type ? schema.attribute(type, "id") : null;
        const trimmed = value.trim();
        if (info && info.refType && type && !info.isPoid && !schema!.isAssignable(type, info.refType)) {
          if (trimmed && !isExpressionValue(trimmed)) {
            addRef(
              owner,
              "attribute",
              trimmed,
              info.refType,
              null,
              tag.local,
              parentLocal,
              name,
              attr.valueStart + leading(value),
            );
          }
        } else if (info && info.refType && type && info.isPoid && !schema!.isAssignable(type, info.refType)) {
          // A Poid-typed id naming another kind of object is still pipeline-local.
          localIds.push({
            owner,
            element: intern(tag.local),
            id: trimmed,
            offset: attr.valueStart,
            line: pos(attr.valueStart).line,
          });
        } else if (trimmed) {
          localIds.push({
            owner,
            element: intern(tag.local),
            id: trimmed,
            offset: attr.valueStart,
            line: pos(attr.valueStart).line,
          });
        }
        continue;
      }
      if (name.length === 11 && name.toLowerCase() === "inheritfrom") {
        const isAsset = topLevel || (schema !== null && type !== null && schema.isAssetType(type));
        const trimmed = value.trim();
        if (isAsset && trimmed && !isExpressionValue(trimmed)) {
          addRef(
            owner,
            "inheritFrom",
            trimmed,
            null,
            type ?? tag.local,
            tag.local,
            parentLocal,
            attr.qname,
            attr.valueStart + leading(value),
          );
        }
        if (isAsset || !schema) continue;
      }
      if (!schema) {
        eachToken(value, attr.valueStart, true, (token, offset) => {
          if (!isExpressionValue(token) && looksLikeAssetId(token)) {
            addRef(owner, "heuristic", token, null, null, tag.local, parentLocal, name, offset);
          }
        });
        continue;
      }
      if (!type) continue;
      const info = schema.attribute(type, name);
      if (!info) {
        diag(
          "unknown-attribute",
          "warning",
          `attribute ${name} is not declared for <${tag.local}> (type ${type})`,
          attr.nameStart,
        );
        continue;
      }
      if (!info.refType && !info.isRef) continue;
      if (info.isPoid) {
        const trimmed = value.trim();
        if (trimmed && !isExpressionValue(trimmed)) {
          const p = pos(attr.valueStart);
          poidRefs.push({
            owner,
            value: trimmed,
            element: intern(tag.local),
            attribute: intern(name),
            offset: attr.valueStart,
            line: p.line,
            column: p.column,
          });
        }
        continue;
      }
      const raw = text.slice(attr.valueStart, attr.valueEnd);
      // Attribute-value normalisation turns tabs and line breaks into spaces: tokens of the raw value
      // (when it has no entity references) are the same, at their exact offsets.
      const exact = raw.indexOf("&") < 0;
      eachToken(exact ? raw : value, attr.valueStart, info.isList, (token, offset) => {
        if (isExpressionValue(token)) return;
        addRef(
          owner,
          "attribute",
          token,
          info.refType,
          null,
          tag.local,
          parentLocal,
          name,
          exact ? offset : attr.valueStart,
        );
      });
    }
  }

  const error = parseXml(
    text,
    { startElement: onStart, endElement: onEnd, text: onText },
    { namespaces: true },
  );
  if (error) {
    diagnostics.push({
      code: "xml-syntax",
      severity: "error",
      message: error.message,
      line: error.line,
      column: error.column,
    });
    // Close what the error left open so ranges and assets have an end.
    while (stack.length) {
      const frame = stack.pop()!;
      if (frame.rangeIndex >= 0) {
        const r = ranges[frame.rangeIndex];
        ranges[frame.rangeIndex] = { ...r, end: error.offset, idChildren: frame.idChildren ?? [] };
      }
      if (!fragment && frame.depth === 1 && frame.region === "asset" && frame.owner >= 0) {
        const a = assets[frame.owner];
        assets[frame.owner] = { ...a, end: error.offset, endLine: error.line };
      }
    }
  }

  const shared = <T>(list: T[]): readonly T[] => (list.length === 0 ? EMPTY : list);
  return {
    ...emptyRecord("xml"),
    rootName,
    fragment,
    assets: shared(assets),
    defines: shared(defines),
    includes: shared(includes),
    xincludes: shared(xincludes),
    refs: shared(refs),
    poidRefs: shared(poidRefs),
    localIds: shared(localIds),
    defineUses: shared(defineUses),
    stringKeys: shared(stringKeys),
    ranges,
    diagnostics: shared(diagnostics),
    lineCount: lines.lineCount,
  };
}

function leading(value: string): number {
  return value.length - value.trimStart().length;
}

function findAttr(tag: XmlStartTag, local: string): { value: string; valueStart: number } | null {
  for (const a of tag.attributes) if (a.local === local && !a.prefix) return a;
  return null;
}

function findAttrCaseless(tag: XmlStartTag, local: string): { value: string; valueStart: number } | null {
  const want = local.toLowerCase();
  for (const a of tag.attributes) if (!a.prefix && a.local.toLowerCase() === want) return a;
  return null;
}
