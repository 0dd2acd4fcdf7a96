import { describe, expect, test } from "bun:test";
import { EMPTY_BUFFER_HASH, fastHash, formatTypeId, instanceHash, symbolHash } from "../../src/formats/fasthash.ts";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("symbolHash", () => {
  // formats.md §3, "Known type ids" (OpenSAGE AssetType values).
  const knownTypeIds: [string, number][] = [
    ["GameObject", 0x942fff2d],
    ["WeaponTemplate", 0x94d4d96e],
    ["ArmorTemplate", 0x3a6c5e8e],
    ["Texture", 0x21e727da],
    ["W3DMesh", 0xc2b1a262],
    ["W3DContainer", 0xf0f08712],
    ["W3DHierarchy", 0x61d7ea40],
    ["W3DAnimation", 0x2448ae30],
    ["W3DCollisionBox", 0xe3181c04],
    ["AudioFile", 0x166b084d],
    ["AudioEvent", 0x844d7b9f],
    ["FXList", 0x86682e78],
    ["FXParticleSystemTemplate", 0x28e7fd7f],
    ["LogicCommandSet", 0xec066d65],
    ["UpgradeTemplate", 0xe1afe75b],
  ];
  for (const [name, id] of knownTypeIds) {
    test(`${name} → ${formatTypeId(id)}`, () => expect(symbolHash(name)).toBe(id));
  }

  test("is case-sensitive (the OpenSAGE label W3dMesh hashes differently)", () => {
    expect(symbolHash("W3dMesh")).toBe(0x3cb4f997);
    expect(symbolHash("W3DMesh")).not.toBe(symbolHash("W3dMesh"));
  });

  // Type ids read from TW global.manifest, one per tail length (name length mod 4 = 0, 1, 2, 3).
  test.each([
    ["AudioLOD", 0x11d8bac7],
    ["AmbientStream", 0xea2c2798],
    ["AudioEvent", 0x844d7b9f],
    ["DialogEvent", 0xd414d1c3],
  ])("%s has the id stored in global.manifest", (name, id) => expect(symbolHash(name)).toBe(id));

  test("the empty string hashes to 0 (string overload)", () => expect(symbolHash("")).toBe(0));

  test("results are unsigned 32-bit integers", () => {
    for (const s of ["GameObject", "a", "ab", "abc", "abcd", "x".repeat(1000)]) {
      const h = symbolHash(s);
      expect(Number.isInteger(h) && h >= 0 && h <= 0xffffffff).toBe(true);
    }
  });
});

describe("instanceHash", () => {
  // Instance ids read from TW global.manifest: AudioLOD:High, AudioFile:YELL1, AudioFile:WPower_ona,
  // AudioEvent:NoSound, VideoEventList:G56 (id length mod 4 = 0, 1, 2, 3, 3).
  test.each([
    ["High", 0x70cd84db],
    ["YELL1", 0x5ebf6b4a],
    ["WPower_ona", 0x97171031],
    ["NoSound", 0xf8c135d0],
    ["G56", 0xd57cb0ff],
  ])("%s has the id stored in global.manifest", (id, expected) => expect(instanceHash(id)).toBe(expected));

  test("ignores case", () => {
    expect(instanceHash("NOSOUND")).toBe(0xf8c135d0);
    expect(instanceHash("nosound")).toBe(symbolHash("nosound"));
  });

  test("the empty id hashes to 0", () => expect(instanceHash("")).toBe(0));
});

describe("fastHash (raw-buffer overload)", () => {
  test("returns 0x1337C0DE for an empty buffer", () => {
    expect(fastHash(new Uint8Array(0))).toBe(0x1337c0de);
    expect(EMPTY_BUFFER_HASH).toBe(0x1337c0de);
  });

  test("agrees with symbolHash on non-empty input", () => {
    expect(fastHash(bytes("GameObject"))).toBe(0x942fff2d);
    expect(fastHash(bytes("nosound"))).toBe(0xf8c135d0);
  });

  test("hashes a subarray by its own bytes only", () => {
    const whole = bytes("xxGameObjectyy");
    expect(fastHash(whole.subarray(2, 12))).toBe(0x942fff2d);
  });
});

describe("formatTypeId", () => {
  test("pads to 8 upper-case hex digits", () => {
    expect(formatTypeId(0x942fff2d)).toBe("#942FFF2D");
    expect(formatTypeId(0x2a)).toBe("#0000002A");
  });
});
