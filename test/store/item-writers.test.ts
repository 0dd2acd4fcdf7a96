// The item writers of their own for reference sites and local ids (record-codec.ts ITEM_WRITERS) write
// exactly what the generic loop writes for the same spec: the same bytes, the same string table, the
// same refusals.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ByteWriter } from "../../src/store/bytes.ts";
import {
  compileSpec,
  FILE_RECORD_SPEC,
  slotsOf,
  type Spec,
  StringTable,
  writeObject,
} from "../../src/store/record-codec.ts";
import { emptyRecord, type FileRecord, type RefRecord } from "../../src/index/records.ts";
import { parseFile } from "../../src/index/parse-file.ts";
import type { AssetDef, LinkedIndex, ReferenceSite } from "../../src/index/linked.ts";
import { ASSET, SITE } from "../../src/store/link-codec.ts";
import { resolveConfig } from "../../src/workspace/config.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { tempDirs } from "../temp-dirs.ts";

const temp = tempDirs();
const FAST = compileSpec(FILE_RECORD_SPEC);

/** `spec` with every nested item spec copied: no longer the objects the own writers are registered for. */
function copied(spec: object): object {
  return Object.fromEntries(
    Object.entries(spec).map(([k, v]) => [
      k,
      typeof v === "object" && v !== null && "list" in v ? { list: copied(v.list) } : v,
    ]),
  );
}
// Every item goes through the generic loop.
const GENERIC = compileSpec(copied(FILE_RECORD_SPEC) as Spec<FileRecord>);

function encode(fields: typeof FAST, records: readonly FileRecord[]): { bytes: number[]; strings: string[] } {
  const table = new StringTable();
  const w = new ByteWriter(16);
  for (const r of records) writeObject(w, table, fields, r);
  return { bytes: [...w.finish()], strings: table.strings };
}

const ref = (over: Partial<RefRecord>): RefRecord => ({
  owner: 0,
  kind: "attribute",
  value: "AlliedAthenaCannon",
  refType: "GameObject",
  selfType: null,
  element: "Weapon",
  parent: "WeaponSlot",
  attribute: "Template",
  offset: 12,
  line: 3,
  column: 9,
  ...over,
});

/**
 * `spec`'s own item writer writes the generic loop's bytes and string table for each list of `lists`, and
 * refuses each bad list of `refused` with the generic loop's message.
 */
function expectSameAsGeneric<T>(
  spec: Spec<T>,
  lists: readonly (readonly T[])[],
  refused: readonly (readonly [readonly T[], string])[],
): void {
  // (The generic parameter defeats the spec type's conditional kinds: the holder is built untyped.)
  const holder = (list: Spec<T>) => ({ items: { list } }) as unknown as Spec<{ items: readonly T[] }>;
  const fast = compileSpec(holder(spec));
  const generic = compileSpec(holder({ ...spec }));
  const bytes = (fields: typeof fast, items: readonly T[]) => {
    const table = new StringTable();
    const w = new ByteWriter(16);
    writeObject(w, table, fields, { items });
    return { bytes: [...w.finish()], strings: table.strings };
  };
  for (const items of lists) expect(bytes(fast, items)).toEqual(bytes(generic, items));
  const refusal = (fields: typeof fast, items: readonly T[]) => {
    try {
      bytes(fields, items);
      return "no error";
    } catch (e) {
      return (e as Error).message;
    }
  };
  for (const [bad, message] of refused) {
    expect(refusal(fast, bad)).toBe(message);
    expect(refusal(generic, bad)).toBe(message);
  }
}

/** The sample mod's linked index, built once for the tests that read its sites and assets. */
let linkedSample: Promise<LinkedIndex> | null = null;
function sampleLinked(): Promise<LinkedIndex> {
  linkedSample ??= (async () => {
    const cfg = resolveConfig({
      project: join(import.meta.dirname, "..", "..", "examples", "sample-mod"),
      sdk: "",
      schema: null,
      home: temp.make("ra3-item-writers-"),
    });
    if ("envError" in cfg) throw new Error(cfg.envError);
    const ws = new Workspace(cfg);
    await ws.build();
    return ws.linked!;
  })();
  return linkedSample;
}

/** A plain copy of `item`, field by field as `spec` lists them (a linked item reads its fields through getters). */
function plainCopy<T>(spec: Spec<T>, item: T): T {
  return Object.fromEntries(Object.keys(spec).map((k) => [k, item[k as keyof T]])) as T;
}

describe("item writers of their own", () => {
  test("reference sites, local ids, id children, assets and includes: the generic loop's bytes and string table, nulls and wide numbers included", () => {
    const synthetic: FileRecord = {
      ...emptyRecord("xml"),
      refs: [
        ref({}),
        ref({ owner: -1, kind: "inheritFrom", refType: null, selfType: "GameObject", parent: null, attribute: null }),
        ref({ value: "AlliedAthenaCannon", offset: 2 ** 33, line: 70_000, column: 128 }),
        ref({ kind: "heuristic", value: "Team_é", element: "Prop", parent: null, attribute: "Team", owner: 41 }),
      ],
      assets: [
        {
          type: "GameObject",
          id: "AlliedAthenaCannon",
          line: 4,
          column: 2,
          startLine: 4,
          endLine: 900,
          start: 100,
          end: 40_000,
          inheritFrom: null,
        },
        {
          type: "GameObject",
          id: "AlliedAthenaCannon_Elite",
          line: 901,
          column: 2,
          startLine: 901,
          endLine: 910,
          start: 40_001,
          end: 40_500,
          inheritFrom: "AlliedAthenaCannon",
        },
      ],
      includes: [
        { type: "all", rawType: "all", source: "DATA:static.xml", line: 2, column: 3 },
        { type: null, rawType: null, source: "Units.xml", line: 3, column: 3 },
        { type: null, rawType: "bogus", source: "ART:x.xml", line: 200, column: 3 },
      ],
      ranges: [{
        local: "Objects",
        start: 10,
        end: 90_000,
        line: 5,
        idChildren: [
          { type: "Prop", id: "CC_GRASS08", line: 6, column: 4, offset: 20, start: 12, end: 200 },
          {
            type: "Structure",
            id: "House",
            line: 60_000,
            column: 130,
            offset: 3_000_000,
            start: 2_999_990,
            end: 3_000_500,
          },
        ],
      }],
      localIds: [
        { owner: 0, element: "Behavior", id: "ModuleTag_01", offset: 5, line: 1 },
        { owner: -1, element: "Prop", id: "", offset: 300_000, line: 20_000 },
      ],
    };
    const sample = join(
      import.meta.dirname,
      "..",
      "..",
      "examples",
      "sample-mod",
      "Data",
      "Includes",
      "Allied Units",
      "AthenaCannon.xml",
    );
    const parsed = parseFile(sample, readFileSync(sample), null);
    expect(parsed.refs.length).toBeGreaterThan(0);
    expect(parsed.assets.length).toBeGreaterThan(0);
    const fast = encode(FAST, [synthetic, parsed, synthetic]);
    expect(fast).toEqual(encode(GENERIC, [synthetic, parsed, synthetic]));
    // Repeated values hit the per-field memory of the table: one entry each.
    expect(fast.strings.filter((s) => s === "AlliedAthenaCannon").length).toBe(1);
  });

  test("a value a field cannot hold is refused with the generic loop's message", () => {
    const bad = { ...emptyRecord("xml"), refs: [ref({ value: 5 as unknown as string })] };
    const message = (fields: typeof FAST) => {
      try {
        encode(fields, [bad]);
        return "no error";
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(message(FAST)).toBe("snapshot encoder: field value cannot hold 5");
    expect(message(GENERIC)).toBe("snapshot encoder: field value cannot hold 5");
    const badLine = { ...emptyRecord("xml"), localIds: [{ owner: 0, element: "E", id: "x", offset: 0, line: -2 }] };
    expect(() => encode(FAST, [badLine])).toThrow("snapshot encoder: -2 is not a non-negative safe integer");
    expect(() => encode(GENERIC, [badLine])).toThrow("snapshot encoder: -2 is not a non-negative safe integer");
  });

  test("the linked section's reference sites: the generic loop's bytes for linked sites and plain ones", async () => {
    const linked = [...(await sampleLinked()).sites];
    expect(linked.length).toBeGreaterThan(10);
    const copy = (site: ReferenceSite) => plainCopy(SITE, site);
    const plain: ReferenceSite[] = [
      { ...copy(linked[0]), index: 0, id: "Other", targets: [], via: "Fragments/Headlights.xml", unspliced: true },
      {
        ...copy(linked[1]),
        index: 1,
        refType: null,
        selfType: null,
        parent: null,
        attribute: null,
        line: 90_000,
        column: -1,
        targets: [3, 0, 70_000],
        status: "not_found",
        state: "referenced",
        active: false,
        confirmedByManifest: true,
      },
    ];
    expectSameAsGeneric(SITE, [linked, plain], [
      [[{ ...plain[0], index: 4 }], "snapshot encoder: field index cannot hold 4 (its position is 0)"],
      [
        [{ ...plain[1], index: 0, active: true }],
        "snapshot encoder: field active cannot hold true (state is referenced)",
      ],
      [[{ ...plain[0], unspliced: 1 as unknown as boolean }], "snapshot encoder: field unspliced cannot hold 1"],
    ]);
  });

  test("the linked section's assets: the generic loop's bytes for linked assets and plain ones", async () => {
    const linked = [...(await sampleLinked()).assets];
    expect(linked.length).toBeGreaterThan(5);
    const copy = (a: AssetDef) => plainCopy(ASSET, a);
    const plain: AssetDef[] = [
      { ...copy(linked[0]), index: 0, streams: ["static", "global"], inheritFrom: "Base", manifestSource: null },
      {
        ...copy(linked[1]),
        index: 1,
        line: -1,
        column: 0,
        startLine: 70_000,
        state: "not-included",
        active: false,
        viaInstance: true,
        fileHasErrors: true,
        inheritFrom: null,
        manifestSource: "static.manifest",
        viaXInclude: true,
        recordIndex: -1,
        start: 2 ** 31,
        end: 2 ** 31 + 9,
      },
    ];
    expectSameAsGeneric(ASSET, [linked, plain], [
      [[{ ...plain[0], index: 2 }], "snapshot encoder: field index cannot hold 2 (its position is 0)"],
      [
        [{ ...plain[1], index: 0, active: true }],
        "snapshot encoder: field active cannot hold true (state is not-included)",
      ],
      [[{ ...plain[0], streams: ["x", 3 as unknown as string] }], "snapshot encoder: field streams cannot hold 3"],
      [
        [{ ...plain[0], fileHasErrors: "no" as unknown as boolean }],
        'snapshot encoder: field fileHasErrors cannot hold "no"',
      ],
    ]);
  });

  test("a writer's field list that is not its spec's is refused when it is made, naming both lists", () => {
    const sub = compileSpec<{ a: string; b: number; c: string | null }>({ a: "str", b: "int", c: "str?" });
    expect(slotsOf(sub, "a b c")).toHaveLength(2);
    expect(() => slotsOf(sub, "a c b")).toThrow("snapshot spec: the fields are a b c, not a c b");
    expect(() => slotsOf(sub, "a b")).toThrow("snapshot spec: the fields are a b c, not a b");
  });
});
