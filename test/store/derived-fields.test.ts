// The spec kinds that store nothing (a position, a flag derived from a string field) or little (a string
// often equal to another), and the writer's fixed-width fields and exact-size finish.
import { describe, expect, test } from "bun:test";
import { ByteReader, ByteWriter } from "../../src/store/bytes.ts";
import { compileSpec, readObject, type Spec, StringTable, writeObject } from "../../src/store/record-codec.ts";

interface Item {
  readonly index: number;
  readonly value: string;
  readonly id: string;
  readonly state: string;
  readonly active: boolean;
}
interface Holder {
  readonly items: readonly Item[];
}

const ITEM: Spec<Item> = {
  index: "position",
  value: "str",
  id: { same: "value" },
  state: "str",
  active: { is: { field: "state", value: "compiled" } },
};
const HOLDER = compileSpec<Holder>({ items: { list: ITEM } });

const items: Item[] = [
  { index: 0, value: "AthenaCannon", id: "AthenaCannon", state: "compiled", active: true },
  { index: 1, value: "$WEAPON", id: "AthenaSplash", state: "referenced", active: false },
  { index: 2, value: "x", id: "x", state: "not-included", active: false },
];

function encoded(value: Holder): { bytes: Uint8Array; table: string[] } {
  const table = new StringTable();
  const w = new ByteWriter(4);
  writeObject(w, table, HOLDER, value);
  return { bytes: w.finish(), table: table.strings };
}

describe("derived fields", () => {
  test("round trip: the position and the flag are derived, an id equal to its value is one zero byte", () => {
    const { bytes, table } = encoded({ items });
    // count, then per item: value, id (0 = same, else index + 1), state.
    expect([...bytes]).toEqual([3, 0, 0, 1, 2, 4, 4, 5, 0, 6]);
    expect(table).toEqual(["AthenaCannon", "compiled", "$WEAPON", "AthenaSplash", "referenced", "x", "not-included"]);
    const back = readObject(new ByteReader(bytes), table, HOLDER) as unknown as Holder;
    expect(back).toEqual({ items });
    // The key order of the objects the link made (the JSON export's bytes depend on it).
    expect(Object.keys(back.items[1])).toEqual(["index", "value", "id", "state", "active"]);
  });

  test("the writer throws when a derived value is not what the reader would derive (a bug)", () => {
    expect(() => encoded({ items: [{ ...items[0], index: 5 }] })).toThrow(
      "snapshot encoder: field index cannot hold 5 (its position is 0)",
    );
    expect(() => encoded({ items: [{ ...items[1], index: 0, active: true }] })).toThrow(
      "snapshot encoder: field active cannot hold true (state is referenced)",
    );
  });

  test("a spec whose flag or comparison names no earlier string field is refused when compiled", () => {
    expect(() => compileSpec<Item>({ ...ITEM, active: { is: { field: "nothing", value: "x" } } })).toThrow(
      "snapshot spec: flag active tests nothing, not a string field of the same object",
    );
    const late: Spec<{ id: string; value: string }> = { id: { same: "value" }, value: "str" };
    expect(() => compileSpec(late)).toThrow("snapshot spec: id is compared with value, not an earlier string field");
  });
});

describe("the writer's remembered string indexes", () => {
  // Each string field of a spec remembers its last value's table index. Fails if that memory outlives
  // its table: a second table numbers the same strings differently.
  test("two tables used in turn each get their own indexes", () => {
    const a = new StringTable();
    const b = new StringTable();
    b.intern("first in b");
    b.intern("referenced");
    const wa = new ByteWriter(4);
    const wb = new ByteWriter(4);
    for (let round = 0; round < 2; round++) {
      writeObject(wa, a, HOLDER, { items });
      writeObject(wb, b, HOLDER, { items });
    }
    const ra = new ByteReader(wa.finish());
    const rb = new ByteReader(wb.finish());
    for (let round = 0; round < 2; round++) {
      expect(readObject(ra, a.strings, HOLDER)).toEqual({ items });
      expect(readObject(rb, b.strings, HOLDER)).toEqual({ items });
    }
    expect(b.strings.slice(0, 4)).toEqual(["first in b", "referenced", "AthenaCannon", "compiled"]);
  });

  // The layout fingerprint is the compiled specs as JSON (a snapshot of another layout is refused): the
  // slot of a field's memory must not enter it. Fails if the slot is a plain property.
  test("the memory's slot is not part of a compiled field's JSON (nor of the layout fingerprint)", () => {
    expect(JSON.stringify(compileSpec<{ a: string; b: string | null; n: number }>({ a: "str", b: "str?", n: "uint" })))
      .toBe('[{"name":"a","code":0,"sub":null},{"name":"b","code":1,"sub":null},{"name":"n","code":3,"sub":null}]');
  });

  test("a value repeated by the next object is the same index; a changed one is interned", () => {
    const table = new StringTable();
    const w = new ByteWriter(4);
    const repeated = [0, 1, 2].map((index) => ({ ...items[1], index, id: index === 2 ? "Other" : items[1].id }));
    writeObject(w, table, HOLDER, { items: repeated });
    // count, then per item: value (0), id (index + 1), state (2).
    expect([...w.finish()]).toEqual([3, 0, 2, 2, 0, 2, 2, 0, 4, 2]);
    expect(table.strings).toEqual(["$WEAPON", "AthenaSplash", "referenced", "Other"]);
  });
});

describe("ByteWriter", () => {
  test("u32 placeholders are patched in place; utf8 counts bytes; finish returns exactly what was written", () => {
    const w = new ByteWriter(2);
    w.u32(0);
    const n = w.utf8("é€x");
    w.setU32(0, n);
    w.uint(300);
    const out = w.finish();
    expect(n).toBe(6);
    expect(out.byteLength).toBe(4 + 6 + 2);
    expect(out.buffer.byteLength).toBe(out.byteLength);
    const r = new ByteReader(out);
    expect([r.u32(), new TextDecoder().decode(r.bytes(6)), r.uint(), r.pos === r.end]).toEqual([6, "é€x", 300, true]);
    expect(() => new ByteWriter(8).setU32(0, 1)).toThrow("snapshot encoder: no 4 bytes written at 0");
  });
});
