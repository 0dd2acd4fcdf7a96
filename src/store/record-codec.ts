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

/** The wire kinds a field of value type `V` may use. */
type KindFor<V> = [V] extends [string] ? "str"
  : [V] extends [string | null] ? "str?"
  : [V] extends [number] ? "int" | "uint" | "num"
  : [V] extends [boolean] ? "bool"
  : [V] extends [readonly number[]] ? "int[]"
  : [V] extends [readonly string[]] ? "str[]"
  : [V] extends [readonly (infer E)[]] ? ListOf<E>
  : [V] extends [object | null] ? OptionalOf<NonNullable<V>>
  : never;

/**
 * How each field of `T` is written: `str` (table index), `str?` (index + 1, 0 for null), `int`
 * (zigzag varint), `uint` (varint), `num` (float64), `bool`, `int[]`, `str[]`, a nested list, or an
 * object that may be null (a 0/1 marker, then its fields).
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
const CODES: Record<string, number> = {
  str: STR,
  "str?": STR_OPT,
  int: INT,
  uint: UINT,
  num: NUM,
  bool: BOOL,
  "int[]": INT_LIST,
  "str[]": STR_LIST,
};

/** A spec flattened for the engine: field names with numeric kind codes. */
export interface CompiledField {
  readonly name: string;
  readonly code: number;
  readonly sub: readonly CompiledField[] | null;
}

/** Flattens a spec (its key order is the wire order). */
export function compileSpec<T>(spec: Spec<T>): readonly CompiledField[] {
  return Object.entries(spec as Record<string, unknown>).map(([name, kind]) =>
    typeof kind === "string"
      ? { name, code: CODES[kind], sub: null }
      : "optional" in (kind as object)
      ? { name, code: OBJ_OPT, sub: compileSpec((kind as OptionalOf<unknown>).optional) }
      : { name, code: OBJ_LIST, sub: compileSpec((kind as ListOf<unknown>).list) }
  );
}

interface WellFormed {
  isWellFormed?(): boolean;
  toWellFormed?(): string;
}

/** Interns strings into a table of first occurrences. */
export class StringTable {
  readonly strings: string[] = [];
  private readonly index = new Map<string, number>();

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

/** Writes `value` (an object shaped like `fields`) to `w`. Throws on values the spec cannot hold (bugs). */
export function writeObject(w: ByteWriter, table: StringTable, fields: readonly CompiledField[], value: object): void {
  const o = value as Record<string, unknown>;
  for (const f of fields) {
    const v = o[f.name];
    switch (f.code) {
      case STR:
        if (typeof v !== "string") throw fieldError(f, v);
        w.uint(table.intern(v));
        break;
      case STR_OPT:
        if (v === null) w.uint(0);
        else if (typeof v === "string") w.uint(table.intern(v) + 1);
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
        for (const item of list) writeObject(w, table, f.sub!, item);
      }
    }
  }
}

function fieldError(f: CompiledField, v: unknown): Error {
  return new Error(`snapshot encoder: field ${f.name} cannot hold ${JSON.stringify(v)}`);
}

/** Reads one object shaped like `fields`. Throws {@link CorruptInput} on damaged data. */
export function readObject(
  r: ByteReader,
  table: readonly string[],
  fields: readonly CompiledField[],
): Record<string, unknown> {
  return readerFor(fields)(r, table);
}

/**
 * {@link writeObject} in steps, for one big object: its lists of objects yield after every `every`
 * items (see {@link readObjectSteps}).
 */
export function* writeObjectSteps(
  w: ByteWriter,
  table: StringTable,
  fields: readonly CompiledField[],
  value: object,
  every: number,
): Generator<void, void, void> {
  const o = value as Record<string, unknown>;
  for (const f of fields) {
    if (f.code !== OBJ_LIST) {
      writeObject(w, table, [f], o);
      continue;
    }
    const list = o[f.name] as readonly object[];
    w.uint(list.length);
    for (let k = 0; k < list.length; k++) {
      writeObject(w, table, f.sub!, list[k]);
      if ((k + 1) % every === 0) yield;
    }
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
      o[f.name] = readerFor([f])(r, table)[f.name];
      continue;
    }
    const sub = readerFor(f.sub!);
    const n = r.count();
    const list = new Array<Record<string, unknown>>(n);
    for (let k = 0; k < n; k++) {
      list[k] = sub(r, table);
      if ((k + 1) % every === 0) yield;
    }
    o[f.name] = list;
  }
  return o;
}

/** Reads one object of a compiled spec. */
type ObjectReader = (r: ByteReader, table: readonly string[]) => Record<string, unknown>;

const readers = new WeakMap<readonly CompiledField[], ObjectReader>();

/**
 * The reader of objects shaped like `fields`: a function built once per spec that returns one object
 * literal with every field in spec order, so all objects of a spec share one shape (a generic loop
 * adding fields one by one made decoding the snapshot's 100k reference sites several times slower).
 * The field names come from the specs in this repository, never from input.
 */
function readerFor(fields: readonly CompiledField[]): ObjectReader {
  let reader = readers.get(fields);
  if (reader) return reader;
  const subs = fields.map((f) => (f.sub ? readerFor(f.sub) : null));
  const parts = fields.map((f, i) =>
    `${JSON.stringify(f.name)}: ${READ_EXPRESSION[f.code].replaceAll("$i", String(i))}`
  );
  const make = new Function("h", "subs", `return function read(r, t) { return { ${parts.join(", ")} }; };`);
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
    for (let k = 0; k < n; k++) list[k] = sub(r, table);
    return list;
  },
  opt(r: ByteReader, table: readonly string[], sub: ObjectReader): Record<string, unknown> | null {
    const b = r.uint();
    if (b > 1) throw new CorruptInput(`an optional object's marker is ${b}, not 0 or 1`);
    return b === 1 ? sub(r, table) : null;
  },
};

function str(table: readonly string[], i: number): string {
  const s = table[i];
  if (s === undefined) throw new CorruptInput(`string index ${i} is outside the table of ${table.length}`);
  return s;
}
