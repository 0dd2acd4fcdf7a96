// Varints, floats and the checksum under the snapshot codec.
import { describe, expect, test } from "bun:test";
import { ByteReader, ByteWriter, CorruptInput } from "../../src/store/bytes.ts";

describe("varints", () => {
  test("unsigned values round-trip with the expected byte counts", () => {
    const values = [0, 1, 127, 128, 16383, 16384, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1];
    const w = new ByteWriter(4);
    const sizes: number[] = [];
    for (const v of values) {
      const before = w.length;
      w.uint(v);
      sizes.push(w.length - before);
    }
    expect(sizes).toEqual([1, 1, 1, 2, 2, 3, 5, 5, 5, 5, 8]);
    const r = new ByteReader(w.result());
    expect(values.map(() => r.uint())).toEqual(values);
    expect(r.pos).toBe(r.end);
  });

  test("signed values use zigzag: small magnitudes of either sign take one byte", () => {
    const values = [0, -1, 1, -64, 63, -65, 64, -(2 ** 31), 2 ** 40, -(2 ** 51)];
    const w = new ByteWriter();
    for (const v of values) w.int(v);
    const r = new ByteReader(w.result());
    expect(values.map(() => r.int())).toEqual(values);
    const one = new ByteWriter();
    one.int(-64);
    one.int(63);
    expect(one.length).toBe(2);
  });

  test("floats keep every bit, including NaN and negative zero", () => {
    const values = [1731234567890.1235, -0, NaN, Infinity, 2 ** 60];
    const w = new ByteWriter();
    for (const v of values) w.float(v);
    const r = new ByteReader(w.result());
    const back = values.map(() => r.float());
    expect(back).toEqual(values);
    expect(Object.is(back[1], -0)).toBe(true);
  });

  test("the writer refuses what it cannot represent", () => {
    const w = new ByteWriter();
    expect(() => w.uint(-1)).toThrow("snapshot encoder: -1 is not a non-negative safe integer");
    expect(() => w.uint(2 ** 53)).toThrow("snapshot encoder: 9007199254740992 is not a non-negative safe integer");
    expect(() => w.int(0.5)).toThrow("snapshot encoder: 0.5 is not an integer in ±2^51");
    // The one- and two-byte path takes only integers: a fraction, NaN or -0.5 below 2^14 is refused too.
    expect(() => w.uint(1.5)).toThrow("snapshot encoder: 1.5 is not a non-negative safe integer");
    expect(() => w.uint(NaN)).toThrow("snapshot encoder: NaN is not a non-negative safe integer");
    expect(() => w.uint(-0.5)).toThrow("snapshot encoder: -0.5 is not a non-negative safe integer");
    expect(w.length).toBe(0);
  });

  test("the reader stops at its end and at over-long numbers", () => {
    expect(() => new ByteReader(new Uint8Array([0x80, 0x80])).uint()).toThrow(
      new CorruptInput("unexpected end of data"),
    );
    expect(() => new ByteReader(new Uint8Array(9).fill(0xff)).uint()).toThrow(
      new CorruptInput("a number is longer than 8 bytes"),
    );
    expect(() => new ByteReader(new Uint8Array([5, 1, 2])).count()).toThrow(
      new CorruptInput("a list claims 5 items but only 2 bytes are left"),
    );
    expect(() => new ByteReader(new Uint8Array(7)).float()).toThrow(new CorruptInput("unexpected end of data"));
    // A reader over a window never reads the bytes after it.
    expect(() => new ByteReader(new Uint8Array([1, 2, 3]), 1, 1).uint()).toThrow(
      new CorruptInput("unexpected end of data"),
    );
  });
});
