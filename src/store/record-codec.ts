/**
 * File records ↔ compact bytes. Each record shape is described once by a field spec that the type
 * checker ties to the record interface (a field added to `FileRecord` and forgotten here is a compile
 * error), and one generic engine walks the specs: strings become indexes into a shared, deduplicated
 * string table, numbers become varints, lists a count followed by their items. The field order of a
 * spec is the wire order, so reordering or changing a spec means bumping `SNAPSHOT_SCHEMA_VERSION`.
 */
import type {
  AssetDecl,
  DefineDecl,
  DefineUse,
  ElementRange,
  FileRecord,
  IncludeDecl,
  LocalId,
  ManifestAssetRecord,
  OmittedDiagnostics,
  PoidRef,
  RecordDiagnostic,
  RefRecord,
  StreamReferenceDecl,
  StringEntry,
  StringKeyUse,
  XIncludeDecl,
} from "../index/records.ts";
import { type ByteReader, type ByteWriter, CorruptInput } from "./bytes.ts";

/** A nested list of objects described by their own spec. */
export interface ListOf<T> {
  readonly list: Spec<T>;
}

/** An object or null, described by its own spec. */
export interface OptionalOf<T> {
  readonly optional: Spec<T>;
}

/**
 * A boolean not on the wire: true when the string field `field` of the same object holds `value` (the
 * writer checks that it does).
 */
export interface DerivedFlag {
  readonly is: { readonly field: string; readonly value: string };
}

/**
 * A string most often equal to the string field `field` written before it in the same object: 0 when it
 * is, else its table index + 1.
 */
export interface OftenSame {
  readonly same: string;
}

/** The wire kinds a field of value type `V` may use. */
type KindFor<V> = [V] extends [string] ? "str" | OftenSame
  : [V] extends [string | null] ? "str?"
  : [V] extends [number] ? "int" | "uint" | "num" | "position"
  : [V] extends [boolean] ? "bool" | DerivedFlag
  : [V] extends [readonly number[]] ? "int[]"
  : [V] extends [readonly string[]] ? "str[]"
  : [V] extends [readonly (infer E)[]] ? ListOf<E>
  : [V] extends [object | null] ? OptionalOf<NonNullable<V>>
  : never;

/**
 * How each field of `T` is written: `str` (table index), `str?` (index + 1, 0 for null), `int`
 * (zigzag varint), `uint` (varint), `num` (float64), `bool`, `int[]`, `str[]`, a nested list, or an
 * object that may be null (a 0/1 marker, then its fields), or a string {@link OftenSame} as another. Two kinds are not written at all, since
 * they are derivable: `position` (the object's index in its list) and a {@link DerivedFlag}; the
 * writer throws when the value is not what the reader will derive (a bug, like any unrepresentable value).
 */
export type Spec<T> = { readonly [K in keyof T]-?: KindFor<T[K]> };

const ID_CHILD: Spec<ElementRange["idChildren"][number]> = {
  type: "str",
  id: "str",
  line: "uint",
  column: "uint",
  offset: "uint",
  start: "uint",
  end: "uint",
};

const ASSET: Spec<AssetDecl> = {
  type: "str",
  id: "str",
  line: "uint",
  column: "uint",
  startLine: "uint",
  endLine: "uint",
  start: "uint",
  end: "uint",
  inheritFrom: "str?",
};
const DEFINE: Spec<DefineDecl> = { name: "str", value: "str", line: "uint", column: "uint" };
const INCLUDE: Spec<IncludeDecl> = { type: "str?", rawType: "str?", source: "str", line: "uint", column: "uint" };
const XINCLUDE: Spec<XIncludeDecl> = {
  href: "str",
  xpointer: "str?",
  rootLevel: "bool",
  owner: "int",
  offset: "uint",
  line: "uint",
  column: "uint",
  parentType: "str?",
  parent: "str?",
};
const REF: Spec<RefRecord> = {
  owner: "int",
  kind: "str",
  value: "str",
  refType: "str?",
  selfType: "str?",
  element: "str",
  parent: "str?",
  attribute: "str?",
  offset: "uint",
  line: "uint",
  column: "uint",
};
const POID_REF: Spec<PoidRef> = {
  owner: "int",
  value: "str",
  element: "str",
  attribute: "str",
  offset: "uint",
  line: "uint",
  column: "uint",
};
const LOCAL_ID: Spec<LocalId> = { owner: "int", element: "str", id: "str", offset: "uint", line: "uint" };
const DEFINE_USE: Spec<DefineUse> = {
  owner: "int",
  name: "str",
  element: "str",
  attribute: "str?",
  offset: "uint",
  line: "uint",
  column: "uint",
};
const STRING_KEY: Spec<StringKeyUse> = { owner: "int", key: "str", element: "str", attribute: "str?", line: "uint" };
const RANGE: Spec<ElementRange> = {
  local: "str",
  start: "uint",
  end: "uint",
  line: "uint",
  idChildren: { list: ID_CHILD },
};
const DIAGNOSTIC: Spec<RecordDiagnostic> = { code: "str", severity: "str", message: "str", line: "int", column: "int" };
const OMITTED: Spec<OmittedDiagnostics> = { code: "str", severity: "str", count: "uint", line: "int", column: "int" };
const STRING_ENTRY: Spec<StringEntry> = { key: "str", text: "str", line: "uint" };
const MANIFEST_ASSET: Spec<ManifestAssetRecord> = {
  type: "str",
  id: "str",
  typeId: "uint",
  instanceId: "uint",
  sourceFile: "str",
};

const STREAM_REFERENCE: Spec<StreamReferenceDecl> = { stream: "str", name: "str", manifest: "str" };

/** The wire layout of a {@link FileRecord}. */
export const FILE_RECORD_SPEC: Spec<FileRecord> = {
  kind: "str",
  rootName: "str?",
  fragment: "bool",
  foreign: "bool",
  assets: { list: ASSET },
  defines: { list: DEFINE },
  includes: { list: INCLUDE },
  xincludes: { list: XINCLUDE },
  refs: { list: REF },
  poidRefs: { list: POID_REF },
  localIds: { list: LOCAL_ID },
  defineUses: { list: DEFINE_USE },
  stringKeys: { list: STRING_KEY },
  ranges: { list: RANGE },
  diagnostics: { list: DIAGNOSTIC },
  omittedDiagnostics: { list: OMITTED },
  strings: { list: STRING_ENTRY },
  manifestAssets: { list: MANIFEST_ASSET },
  manifestRefs: "int[]",
  streamSources: "str[]",
  streamReferences: { list: STREAM_REFERENCE },
  lineCount: "uint",
  spliceText: "str?",
};

const STR = 0;
const STR_OPT = 1;
const INT = 2;
const UINT = 3;
const NUM = 4;
const BOOL = 5;
const INT_LIST = 6;
const STR_LIST = 7;
const OBJ_LIST = 8;
const OBJ_OPT = 9;
const POSITION = 10;
const FLAG = 11;
const SAME = 12;
const CODES: Record<string, number> = {
  str: STR,
  "str?": STR_OPT,
  int: INT,
  uint: UINT,
  num: NUM,
  bool: BOOL,
  "int[]": INT_LIST,
  "str[]": STR_LIST,
  position: POSITION,
};

/** A spec flattened for the engine: field names with numeric kind codes. */
export interface CompiledField {
  readonly name: string;
  readonly code: number;
  readonly sub: readonly CompiledField[] | null;
  /** A derived flag: the string field it tests and the value that makes it true. */
  readonly is?: { readonly field: string; readonly value: string };
  /** A string often the same as this earlier string field. */
  readonly same?: string;
  /**
   * A string field's place in every {@link StringTable}'s memory of its last value (-1: not a string
   * field). Keyed by a symbol, so the layout fingerprint (the compiled specs as JSON) does not see it.
   */
  readonly [SLOT]: number;
  /** A list's writer of its own for each item (see {@link itemWriters}), or null for the generic loop. */
  readonly [WRITE]?: ItemWriter | null;
}

/** The key of {@link CompiledField}'s slot. */
const SLOT: unique symbol = Symbol("slot");
/** The key of a list field's own item writer (a symbol, like {@link SLOT}). */
const WRITE: unique symbol = Symbol("write");

/** Slots given to string fields so far. */
let slots = 0;

/** Flattens a spec (its key order is the wire order). */
export function compileSpec<T>(spec: Spec<T>): readonly CompiledField[] {
  const entries = Object.entries(spec as Record<string, unknown>);
  return entries.map(([name, kind]): CompiledField => {
    if (typeof kind === "string") {
      const code = CODES[kind];
      return { name, code, sub: null, [SLOT]: code === STR || code === STR_OPT ? slots++ : -1 };
    }
    if ("optional" in (kind as object)) {
      return { name, code: OBJ_OPT, sub: compileSpec((kind as OptionalOf<unknown>).optional), [SLOT]: -1 };
    }
    if ("is" in (kind as object)) {
      const is = (kind as DerivedFlag).is;
      if (!entries.some(([n, k]) => n === is.field && k === "str")) {
        throw new Error(`snapshot spec: flag ${name} tests ${is.field}, not a string field of the same object`);
      }
      return { name, code: FLAG, sub: null, is: { field: is.field, value: is.value }, [SLOT]: -1 };
    }
    if ("same" in (kind as object)) {
      const same = (kind as OftenSame).same;
      const at = entries.findIndex(([n]) => n === name);
      if (!entries.slice(0, at).some(([n, k]) => n === same && k === "str")) {
        throw new Error(`snapshot spec: ${name} is compared with ${same}, not an earlier string field`);
      }
      return { name, code: SAME, sub: null, same, [SLOT]: slots++ };
    }
    const list = (kind as ListOf<unknown>).list;
    const sub = compileSpec(list);
    const writer = itemWriters.get(list);
    return { name, code: OBJ_LIST, sub, [SLOT]: -1, [WRITE]: writer === undefined ? null : writer(sub) };
  });
}

/**
 * Writes one item of a list, at `position` in it: what {@link writeObject} writes for it, in a function
 * of its own (see {@link itemWriters}).
 */
export type ItemWriter = (w: ByteWriter, table: StringTable, item: object, position: number) => void;

/** Makes an {@link ItemWriter} for a spec from its compiled fields (see {@link slotsOf}). */
export type ItemWriterMaker = (sub: readonly CompiledField[]) => ItemWriter;

/**
 * `spec`, with a writer of its own for its items wherever it is a list's item spec (see
 * {@link itemWriters}); call it before compiling any spec that holds this one.
 */
export function withItemWriter<T>(spec: Spec<T>, make: ItemWriterMaker): Spec<T> {
  itemWriters.set(spec, make);
  return spec;
}

/**
 * Writers of their own for the items of the lists that hold most of a snapshot's objects: a mod's
 * reference sites, local ids and a map's id children (Upheaval with the RA3 schema: 94k, 85k and 84k of
 * ≈ 275k objects), assets and includes (the TW SDK: 47k sites, 12k assets, 10k includes of ≈ 92k); the
 * linked section adds its sites and assets (`link-codec.ts`, through {@link withItemWriter}).
 * {@link writeObject} reads each field by its name from the spec (`o[f.name]`), a lookup the engine cannot
 * specialise since every spec passes through it; these read constant properties. Each writes exactly the
 * bytes the generic loop writes for its spec (a test compares them), in the spec's order, with the same
 * checks.
 */
const itemWriters = new Map<object, ItemWriterMaker>([
  [REF, (sub) => {
    const [kind, value, refType, selfType, element, parent, attribute] = slotsOf(
      sub,
      "owner kind value refType selfType element parent attribute offset line column",
    );
    return (w, table, item) => {
      const r = item as RefRecord;
      w.int(r.owner);
      w.uint(table.internAt(kind, written(r.kind, "kind")));
      w.uint(table.internAt(value, written(r.value, "value")));
      w.uint(optionalIndex(table, refType, r.refType, "refType"));
      w.uint(optionalIndex(table, selfType, r.selfType, "selfType"));
      w.uint(table.internAt(element, written(r.element, "element")));
      w.uint(optionalIndex(table, parent, r.parent, "parent"));
      w.uint(optionalIndex(table, attribute, r.attribute, "attribute"));
      w.uint(r.offset);
      w.uint(r.line);
      w.uint(r.column);
    };
  }],
  [ID_CHILD, (sub) => {
    const [type, id] = slotsOf(sub, "type id line column offset start end");
    return (w, table, item) => {
      const c = item as ElementRange["idChildren"][number];
      w.uint(table.internAt(type, written(c.type, "type")));
      w.uint(table.internAt(id, written(c.id, "id")));
      w.uint(c.line);
      w.uint(c.column);
      w.uint(c.offset);
      w.uint(c.start);
      w.uint(c.end);
    };
  }],
  [ASSET, (sub) => {
    const [type, id, inheritFrom] = slotsOf(sub, "type id line column startLine endLine start end inheritFrom");
    return (w, table, item) => {
      const a = item as AssetDecl;
      w.uint(table.internAt(type, written(a.type, "type")));
      w.uint(table.internAt(id, written(a.id, "id")));
      w.uint(a.line);
      w.uint(a.column);
      w.uint(a.startLine);
      w.uint(a.endLine);
      w.uint(a.start);
      w.uint(a.end);
      w.uint(optionalIndex(table, inheritFrom, a.inheritFrom, "inheritFrom"));
    };
  }],
  [INCLUDE, (sub) => {
    const [type, rawType, source] = slotsOf(sub, "type rawType source line column");
    return (w, table, item) => {
      const i = item as IncludeDecl;
      w.uint(optionalIndex(table, type, i.type, "type"));
      w.uint(optionalIndex(table, rawType, i.rawType, "rawType"));
      w.uint(table.internAt(source, written(i.source, "source")));
      w.uint(i.line);
      w.uint(i.column);
    };
  }],
  [LOCAL_ID, (sub) => {
    const [element, id] = slotsOf(sub, "owner element id offset line");
    return (w, table, item) => {
      const l = item as LocalId;
      w.int(l.owner);
      w.uint(table.internAt(element, written(l.element, "element")));
      w.uint(table.internAt(id, written(l.id, "id")));
      w.uint(l.offset);
      w.uint(l.line);
    };
  }],
]);

/**
 * The string-table slots of the string fields of a compiled spec (`str`, `str?` and a string often the
 * same as another), in order, after checking that its fields are exactly `names` (wire order): a spec
 * changed without its writer throws here, when the module loads.
 */
export function slotsOf(sub: readonly CompiledField[], names: string): number[] {
  if (sub.map((f) => f.name).join(" ") !== names) {
    throw new Error(`snapshot spec: the fields are ${sub.map((f) => f.name).join(" ")}, not ${names}`);
  }
  return sub.filter((f) => f[SLOT] >= 0).map((f) => f[SLOT]);
}

/** `v`, checked to be a string as the generic loop checks a `str` field. */
export function written(v: unknown, name: string): string {
  if (typeof v !== "string") throw cannotHold(name, v);
  return v;
}

/** What a `bool` field writes, checked as the generic loop checks it. */
export function flag(v: unknown, name: string): number {
  if (typeof v !== "boolean") throw cannotHold(name, v);
  return v ? 1 : 0;
}

/** The generic loop's refusal of a value field `name` cannot hold (`why`, when given, in parentheses). */
export function cannotHold(name: string, v: unknown, why = ""): Error {
  return new Error(`snapshot encoder: field ${name} cannot hold ${JSON.stringify(v)}${why && ` (${why})`}`);
}

/** What a `str?` field writes: 0 for null, else the table index + 1. */
export function optionalIndex(table: StringTable, slot: number, v: unknown, name: string): number {
  if (v === null) return 0;
  return table.internAt(slot, written(v, name)) + 1;
}

interface WellFormed {
  isWellFormed?(): boolean;
  toWellFormed?(): string;
}

/** Interns strings into a table of first occurrences. */
export class StringTable {
  readonly strings: string[] = [];
  private readonly index = new Map<string, number>();
  /**
   * Per string field (its slot in the compiled spec), the last value interned for it and its index: most
   * fields repeat their previous object's value (85 % of the string fields of a cold Upheaval snapshot,
   * 58 % of the TW SDK's), and those skip the table's lookup. `null` never equals a string.
   */
  private readonly lastValue: (string | null)[] = new Array<string | null>(slots).fill(null);
  private readonly lastIndex: number[] = new Array<number>(slots).fill(0);

  /** {@link intern} for the string field with slot `slot`. */
  internAt(slot: number, s: string): number {
    if (this.lastValue[slot] === s) return this.lastIndex[slot];
    const i = this.intern(s);
    this.lastValue[slot] = s;
    this.lastIndex[slot] = i;
    return i;
  }

  /** The table index of `s`, adding it on first sight. */
  intern(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.strings.length;
      // A lone surrogate would not survive the UTF-8 table blob and shift every later string; it becomes
      // U+FFFD (same length), which is what any UTF-8 consumer would see anyway.
      const w = s as unknown as WellFormed;
      this.strings.push(w.isWellFormed && !w.isWellFormed() ? w.toWellFormed!() : s);
      this.index.set(s, i);
    }
    return i;
  }
}

/**
 * Writes `value` (an object shaped like `fields`, at `position` in its list) to `w`. Throws on values the
 * spec cannot hold (bugs).
 */
export function writeObject(
  w: ByteWriter,
  table: StringTable,
  fields: readonly CompiledField[],
  value: object,
  position = 0,
): void {
  const o = value as Record<string, unknown>;
  for (const f of fields) {
    const v = o[f.name];
    switch (f.code) {
      case POSITION:
        if (v !== position) throw fieldError(f, v, `its position is ${position}`);
        break;
      case FLAG:
        if (v !== (o[f.is!.field] === f.is!.value)) {
          throw fieldError(f, v, `${f.is!.field} is ${String(o[f.is!.field])}`);
        }
        break;
      case STR:
        if (typeof v !== "string") throw fieldError(f, v);
        w.uint(table.internAt(f[SLOT], v));
        break;
      case SAME:
        if (typeof v !== "string") throw fieldError(f, v);
        w.uint(v === o[f.same!] ? 0 : table.internAt(f[SLOT], v) + 1);
        break;
      case STR_OPT:
        if (v === null) w.uint(0);
        else if (typeof v === "string") w.uint(table.internAt(f[SLOT], v) + 1);
        else throw fieldError(f, v);
        break;
      case INT:
        w.int(v as number);
        break;
      case UINT:
        w.uint(v as number);
        break;
      case NUM:
        if (typeof v !== "number") throw fieldError(f, v);
        w.float(v);
        break;
      case BOOL:
        if (typeof v !== "boolean") throw fieldError(f, v);
        w.uint(v ? 1 : 0);
        break;
      case INT_LIST: {
        const list = v as readonly number[];
        w.uint(list.length);
        for (const n of list) w.int(n);
        break;
      }
      case STR_LIST: {
        const list = v as readonly string[];
        w.uint(list.length);
        for (const s of list) {
          if (typeof s !== "string") throw fieldError(f, s);
          w.uint(table.intern(s));
        }
        break;
      }
      case OBJ_OPT:
        if (v === null) w.uint(0);
        else {
          w.uint(1);
          writeObject(w, table, f.sub!, v as object);
        }
        break;
      default: {
        const list = v as readonly object[];
        w.uint(list.length);
        const write = f[WRITE];
        if (write) { for (let k = 0; k < list.length; k++) write(w, table, list[k], k); }
        else for (let k = 0; k < list.length; k++) writeObject(w, table, f.sub!, list[k], k);
      }
    }
  }
}

function fieldError(f: CompiledField, v: unknown, why = ""): Error {
  return cannotHold(f.name, v, why);
}

/** Reads one object shaped like `fields`. Throws {@link CorruptInput} on damaged data. */
export function readObject(
  r: ByteReader,
  table: readonly string[],
  fields: readonly CompiledField[],
): Record<string, unknown> {
  return readerFor(fields)(r, table, 0);
}

/**
 * A list made while it is written: its items, and how many there are (written before them). Lets a big
 * list derived from a map be written without building it (see {@link writeObjectSteps}).
 */
export interface SizedItems<T> extends Iterable<T> {
  readonly length: number;
}

/**
 * {@link writeObject} in steps, for one big object: its lists of objects yield after every `every`
 * items, counted across the lists (see {@link readObjectSteps}). A top-level list may also be {@link SizedItems} (each item is
 * written before the next is asked for, so the items may be one object refilled).
 */
export function* writeObjectSteps(
  w: ByteWriter,
  table: StringTable,
  fields: readonly CompiledField[],
  value: object,
  every: number,
): Generator<void, void, void> {
  const o = value as Record<string, unknown>;
  // Items are counted across the lists: many short lists in a row are a step too (Upheaval's linked
  // section wrote a dozen lists under `every` items each, 50 ms, without a yield).
  let since = 0;
  for (const f of fields) {
    if (f.code !== OBJ_LIST) {
      writeObject(w, table, [f], o);
      continue;
    }
    const list = o[f.name] as SizedItems<object>;
    w.uint(list.length);
    let k = 0;
    const write = f[WRITE];
    for (const item of list) {
      if (write) write(w, table, item, k);
      else writeObject(w, table, f.sub!, item, k);
      k++;
      if (++since === every) {
        since = 0;
        yield;
      }
    }
    if (k !== list.length) throw new Error(`snapshot encoder: list ${f.name} said ${list.length} items, gave ${k}`);
  }
}

/**
 * {@link readObject} in steps, for one big object: its fields are read in order, and its lists of
 * objects yield after every `every` items (a long-running process answers requests between steps).
 */
export function* readObjectSteps(
  r: ByteReader,
  table: readonly string[],
  fields: readonly CompiledField[],
  every: number,
): Generator<void, Record<string, unknown>, void> {
  const o: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.code !== OBJ_LIST) {
      o[f.name] = readerFor(alone(f))(r, table, 0)[f.name];
      continue;
    }
    const sub = readerFor(f.sub!);
    const n = r.count();
    const list = new Array<Record<string, unknown>>(n);
    for (let k = 0; k < n; k++) {
      list[k] = sub(r, table, k);
      if ((k + 1) % every === 0) yield;
    }
    o[f.name] = list;
  }
  return o;
}

const alones = new WeakMap<CompiledField, readonly CompiledField[]>();

/**
 * The spec of `f` alone, the same array each time: a reader is built once per spec array (a fresh `[f]`
 * per call compiled a new reader every time).
 */
function alone(f: CompiledField): readonly CompiledField[] {
  let spec = alones.get(f);
  if (!spec) alones.set(f, spec = [f]);
  return spec;
}

/** Reads one object of a compiled spec, the `k`th of its list. */
type ObjectReader = (r: ByteReader, table: readonly string[], k: number) => Record<string, unknown>;

const readers = new WeakMap<readonly CompiledField[], ObjectReader>();

/**
 * The reader of objects shaped like `fields`: a function built once per spec that reads the wire fields
 * in order into locals and returns one object literal with every field in spec order, so all objects of
 * a spec share one shape and the key order of the objects the link made (a generic loop adding fields
 * one by one made decoding the snapshot's 100k reference sites several times slower).
 * The field names and flag values come from the specs in this repository, never from input.
 */
function readerFor(fields: readonly CompiledField[]): ObjectReader {
  let reader = readers.get(fields);
  if (reader) return reader;
  const subs = fields.map((f) => (f.sub ? readerFor(f.sub) : null));
  const local = (name: string) => `v${fields.findIndex((f) => f.name === name)}`;
  const expression = (f: CompiledField, i: number) =>
    f.code === SAME ? `h.same(t, r.uint(), ${local(f.same!)})` : READ_EXPRESSION[f.code].replaceAll("$i", String(i));
  const reads = fields.flatMap((f, i) =>
    f.code === POSITION || f.code === FLAG ? [] : [`const v${i} = ${expression(f, i)};`]
  );
  const parts = fields.map((f, i) =>
    `${JSON.stringify(f.name)}: ${
      f.code === POSITION ? "k" : f.code === FLAG ? `${local(f.is!.field)} === ${JSON.stringify(f.is!.value)}` : `v${i}`
    }`
  );
  const body = `${reads.join(" ")} return { ${parts.join(", ")} };`;
  const make = new Function("h", "subs", `return function read(r, t, k) { ${body} };`);
  reader = make(READ_HELPERS, subs) as ObjectReader;
  readers.set(fields, reader);
  return reader;
}

/** How each kind of field is read, as an expression over `r`, `t`, the helpers `h` and `subs[$i]`. */
const READ_EXPRESSION: Record<number, string> = {
  [STR]: "h.str(t, r.uint())",
  [STR_OPT]: "h.strOpt(t, r.uint())",
  [INT]: "r.int()",
  [UINT]: "r.uint()",
  [NUM]: "r.float()",
  [BOOL]: "h.bool(r.uint())",
  [INT_LIST]: "h.ints(r)",
  [STR_LIST]: "h.strs(r, t)",
  [OBJ_LIST]: "h.list(r, t, subs[$i])",
  [OBJ_OPT]: "h.opt(r, t, subs[$i])",
};

const READ_HELPERS = {
  str,
  same(table: readonly string[], n: number, other: string): string {
    return n === 0 ? other : str(table, n - 1);
  },
  strOpt(table: readonly string[], n: number): string | null {
    return n === 0 ? null : str(table, n - 1);
  },
  bool(b: number): boolean {
    if (b > 1) throw new CorruptInput(`a boolean field holds ${b}`);
    return b === 1;
  },
  ints(r: ByteReader): number[] {
    const n = r.count();
    const list = new Array<number>(n);
    for (let k = 0; k < n; k++) list[k] = r.int();
    return list;
  },
  strs(r: ByteReader, table: readonly string[]): string[] {
    const n = r.count();
    const list = new Array<string>(n);
    for (let k = 0; k < n; k++) list[k] = str(table, r.uint());
    return list;
  },
  list(r: ByteReader, table: readonly string[], sub: ObjectReader): Record<string, unknown>[] {
    const n = r.count();
    const list = new Array<Record<string, unknown>>(n);
    for (let k = 0; k < n; k++) list[k] = sub(r, table, k);
    return list;
  },
  opt(r: ByteReader, table: readonly string[], sub: ObjectReader): Record<string, unknown> | null {
    const b = r.uint();
    if (b > 1) throw new CorruptInput(`an optional object's marker is ${b}, not 0 or 1`);
    return b === 1 ? sub(r, table, 0) : null;
  },
};

function str(table: readonly string[], i: number): string {
  const s = table[i];
  if (s === undefined) throw new CorruptInput(`string index ${i} is outside the table of ${table.length}`);
  return s;
}
