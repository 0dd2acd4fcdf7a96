import { afterAll, describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Packr } from "../../src/store/msgpack.ts";
import { loadSchemaCached, loadSchemaCachedSteps, schemaCacheFile } from "../../src/schema/cache.ts";
import { loadSchema } from "../../src/schema/load.ts";
import { runSteps } from "../../src/steps.ts";
import { CORPORA } from "../../scripts/corpora.ts";

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const HEAD = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xas="uri:ea.com:eala:asset:schema">`;
const text = (...lines: string[]) => [HEAD, ...lines, "</xs:schema>"].join("\n");

/** A schema folder and an empty cache folder beside it. */
function setup(files: Record<string, string>): { xsd: string; cache: string } {
  const root = mkdtempSync(join(tmpdir(), "ra3-schema-cache-"));
  roots.push(root);
  const xsd = join(root, "xsd");
  for (const [rel, t] of Object.entries(files)) {
    mkdirSync(dirname(join(xsd, rel)), { recursive: true });
    writeFileSync(join(xsd, rel), t);
  }
  return { xsd, cache: join(root, "cache") };
}

const entry = text(`<xs:include schemaLocation="Types.xsd" />`, `<xs:include schemaLocation="Later.xsd" />`);
const types = text(`<xs:complexType name="A"><xs:attribute name="x" type="xs:string" /></xs:complexType>`);

describe("loadSchemaCached", () => {
  test("the second load comes from the cache and equals a fresh load", () => {
    const { xsd, cache } = setup({ "CnC3Types.xsd": entry, "Types.xsd": types });
    const first = loadSchemaCached(xsd, cache);
    expect([first.fromCache, first.cacheWarning]).toEqual([false, null]);
    expect(existsSync(first.cacheFile)).toBe(true);
    expect(first.cacheFile).toBe(schemaCacheFile(xsd, cache));
    const second = loadSchemaCached(xsd, cache);
    expect(second.fromCache).toBe(true);
    const fresh = loadSchema(xsd);
    expect(second.model).toEqual(fresh.model!);
    expect(second.diagnostics).toEqual(fresh.diagnostics);
    expect(second.files).toEqual(fresh.files);
    // no temp files left behind
    expect(readdirSync(cache)).toEqual([first.cacheFile.slice(cache.length + 1)]);
  });

  // Rule: the content key names what the model was built from (snapshots use it as their schema key).
  // Fails if it hashes paths or stamps instead of bytes, or ignores a missing include.
  test("the content key: equal for equal bytes (another folder, a touched file, from the cache), else different", () => {
    const a = setup({ "CnC3Types.xsd": entry, "Types.xsd": types });
    const b = setup({ "CnC3Types.xsd": entry, "Types.xsd": types });
    const key = loadSchemaCached(a.xsd, a.cache).contentKey;
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(loadSchemaCached(a.xsd, a.cache)).toMatchObject({ fromCache: true, contentKey: key });
    expect(loadSchema(b.xsd).contentKey).toBe(key);
    utimesSync(join(b.xsd, "Types.xsd"), new Date(2031, 0, 1), new Date(2031, 0, 1));
    expect(loadSchema(b.xsd).contentKey).toBe(key);
    writeFileSync(join(b.xsd, "Types.xsd"), types.replace('name="x"', 'name="y"'));
    const edited = loadSchema(b.xsd).contentKey;
    expect(edited).not.toBe(key);
    // Later.xsd is missing in both; once it exists the set is another one.
    writeFileSync(join(b.xsd, "Later.xsd"), text());
    expect([key, edited]).not.toContain(loadSchema(b.xsd).contentKey);
    expect(loadSchema(join(b.xsd, "nowhere")).contentKey).toBeNull();
  });

  // Rule: with `deferWrite` the load writes nothing; `writeCache` writes what an immediate load would have
  // written, once. Fails if the load still writes, if the write is lost, or if an edit between the load and
  // the write is cached as the new content.
  test("deferWrite: the cache is written by writeCache, once, with the stamps of the files read", () => {
    const { xsd, cache } = setup({ "CnC3Types.xsd": entry, "Types.xsd": types });
    const first = loadSchemaCached(xsd, cache, { deferWrite: true });
    expect([first.fromCache, existsSync(first.cacheFile), typeof first.writeCache]).toEqual([false, false, "function"]);
    expect(runSteps(first.writeCache!())).toBeNull();
    expect(readdirSync(cache)).toEqual([first.cacheFile.slice(cache.length + 1)]);
    const bytes = readFileSync(first.cacheFile);
    expect(runSteps(first.writeCache!())).toBeNull(); // the second run writes nothing
    expect(readFileSync(first.cacheFile).equals(bytes)).toBe(true);
    const second = loadSchemaCached(xsd, cache, { deferWrite: true });
    expect([second.fromCache, second.writeCache]).toEqual([true, null]);
    expect(second.model).toEqual(loadSchema(xsd).model!);

    // Edited after the load, before the write: the cache holds the old stamps, so the next load re-reads.
    const other = setup({ "CnC3Types.xsd": entry, "Types.xsd": types });
    const early = loadSchemaCached(other.xsd, other.cache, { deferWrite: true });
    writeFileSync(join(other.xsd, "Types.xsd"), text(`<xs:complexType name="B" />`));
    utimesSync(join(other.xsd, "Types.xsd"), new Date(2030, 0, 1), new Date(2030, 0, 1));
    runSteps(early.writeCache!());
    const after = loadSchemaCached(other.xsd, other.cache);
    expect([after.fromCache, Object.keys(after.model!.complexTypes)]).toEqual([false, ["B"]]);
  });

  test("an edited XSD invalidates the cache", () => {
    const { xsd, cache } = setup({ "CnC3Types.xsd": entry, "Types.xsd": types });
    loadSchemaCached(xsd, cache);
    writeFileSync(join(xsd, "Types.xsd"), text(`<xs:complexType name="B" />`));
    utimesSync(join(xsd, "Types.xsd"), new Date(2030, 0, 1), new Date(2030, 0, 1));
    const after = loadSchemaCached(xsd, cache);
    expect(after.fromCache).toBe(false);
    expect(Object.keys(after.model!.complexTypes)).toEqual(["B"]);
    expect(loadSchemaCached(xsd, cache).fromCache).toBe(true);
  });

  test("an include target that appears invalidates a cached 'not found'", () => {
    const { xsd, cache } = setup({ "CnC3Types.xsd": entry, "Types.xsd": types });
    const first = loadSchemaCached(xsd, cache);
    expect(first.diagnostics.map((d) => d.message)).toEqual([
      "CnC3Types.xsd line 3: included XSD not found: Later.xsd",
    ]);
    expect(loadSchemaCached(xsd, cache).fromCache).toBe(true);
    writeFileSync(join(xsd, "later.XSD"), text(`<xs:complexType name="L" />`));
    const after = loadSchemaCached(xsd, cache);
    expect(after.fromCache).toBe(false);
    expect(after.diagnostics).toEqual([]);
    expect(Object.keys(after.model!.complexTypes)).toEqual(["A", "L"]);
  });

  test("a corrupt cache file is ignored and rewritten", () => {
    const { xsd, cache } = setup({ "CnC3Types.xsd": entry, "Types.xsd": types });
    const first = loadSchemaCached(xsd, cache);
    writeFileSync(first.cacheFile, "not msgpack at all \u0000\u00ff");
    const second = loadSchemaCached(xsd, cache);
    expect([second.fromCache, second.cacheWarning]).toEqual([false, null]);
    expect(Object.keys(second.model!.complexTypes)).toEqual(["A"]);
    expect(loadSchemaCached(xsd, cache).fromCache).toBe(true);
  });

  test("a missing folder is never cached", () => {
    const { xsd, cache } = setup({});
    const r = loadSchemaCached(xsd, cache);
    expect(r.model).toBeNull();
    expect(r.diagnostics[0].message).toBe(`XSD folder not found: ${xsd}`);
    expect(existsSync(cache)).toBe(false);
  });

  test("an unwritable cache folder is a warning, not a failure", () => {
    const { xsd, cache } = setup({ "CnC3Types.xsd": entry, "Types.xsd": types });
    writeFileSync(cache, "a file where the cache folder should be");
    const r = loadSchemaCached(xsd, cache);
    expect(Object.keys(r.model!.complexTypes)).toEqual(["A"]);
    expect(r.fromCache).toBe(false);
    expect(r.cacheWarning?.startsWith(`could not write the schema cache ${r.cacheFile}: `)).toBe(true);
  });

  test("one cache file per XSD folder, whatever the spelling of its path", () => {
    expect(schemaCacheFile("/sdk/Schemas/xsd", "/c")).toBe(schemaCacheFile("/SDK/schemas/XSD/", "/c"));
    expect(schemaCacheFile("/sdk/Schemas/xsd", "/c")).not.toBe(schemaCacheFile("/mod/Schemas/xsd", "/c"));
  });
});

describe("the cache file in steps", () => {
  /** An XSD set of `n` complex types (each with an attribute, some sharing an enumeration). */
  function manyTypes(n: number): Record<string, string> {
    const decls = Array.from(
      { length: n },
      (_, i) =>
        `<xs:complexType name="T${i}"><xs:attribute name="a${i}" type="${
          i % 3 ? "xs:string" : "Kind"
        }" /></xs:complexType>`,
    );
    const kind = `<xs:simpleType name="Kind"><xs:restriction base="xs:string"><xs:enumeration value="X" />` +
      `<xs:enumeration value="Y" /></xs:restriction></xs:simpleType>`;
    return { "CnC3Types.xsd": text(`<xs:include schemaLocation="Types.xsd" />`), "Types.xsd": text(kind, ...decls) };
  }

  /** Runs the cached load's steps, counting them. */
  function stepsOf(xsd: string, cache: string): { result: ReturnType<typeof loadSchemaCached>; steps: number } {
    const g = loadSchemaCachedSteps(xsd, cache);
    for (let steps = 1;; steps++) {
      const s = g.next();
      if (s.done) return { result: s.value, steps };
    }
  }

  test("300 types: written and read a chunk of 128 per step, equal to a fresh load", () => {
    const { xsd, cache } = setup(manyTypes(300));
    const fresh = loadSchema(xsd);
    expect(Object.keys(fresh.model!.complexTypes).length).toBe(300);
    const cold = stepsOf(xsd, cache);
    const warm = stepsOf(xsd, cache);
    expect([cold.result.fromCache, warm.result.fromCache]).toEqual([false, true]);
    expect(warm.result.model).toEqual(fresh.model!);
    expect(Object.keys(warm.result.model!.complexTypes)).toEqual(Object.keys(fresh.model!.complexTypes));
    // Read: the header and the stamps of its 2 files, then each of the three chunks (the last returns).
    expect(warm.steps).toBe(1 + 3 + 1);
    // The same set with 100 types: one chunk, two steps fewer.
    const few = setup(manyTypes(100));
    stepsOf(few.xsd, few.cache);
    expect(stepsOf(few.xsd, few.cache).steps).toBe(warm.steps - 2);
  });

  /** A base type whose attributes (one an enumeration) two derived types inherit, and a shared child. */
  const inherited = text(
    `<xs:simpleType name="Kind"><xs:restriction base="xs:string"><xs:enumeration value="X" /></xs:restriction></xs:simpleType>`,
    `<xs:complexType name="Base"><xs:sequence><xs:element name="Part" type="xs:string" /></xs:sequence>` +
      `<xs:attribute name="kind" type="Kind" /><xs:attribute name="id" type="xs:string" /></xs:complexType>`,
    `<xs:complexType name="A"><xs:complexContent><xs:extension base="Base">` +
      `<xs:attribute name="a" type="Kind" /></xs:extension></xs:complexContent></xs:complexType>`,
    `<xs:complexType name="B"><xs:complexContent><xs:extension base="Base" /></xs:complexContent></xs:complexType>`,
  );

  // Fails if the cache copies what the model shares (each type its own attribute objects and value
  // lists: more memory, a bigger file) or loses a field, a key order or an absent-versus-undefined.
  test("what the model shares stays shared, and the model read back is strictly equal to a fresh load", () => {
    const { xsd, cache } = setup({
      "CnC3Types.xsd": text(`<xs:include schemaLocation="Types.xsd" />`),
      "Types.xsd": inherited,
    });
    const fresh = loadSchema(xsd).model!;
    const t = fresh.complexTypes;
    // What the loader shares (the premise of the pools).
    expect(t.A.attributes.kind).toBe(t.Base.attributes.kind);
    expect(t.A.attributes.a.enumValues).toBe(t.A.attributes.kind.enumValues);
    expect(t.B.children.Part).toBe(t.Base.children.Part);
    loadSchemaCached(xsd, cache);
    const back = loadSchemaCached(xsd, cache);
    expect(back.fromCache).toBe(true);
    const c = back.model!.complexTypes;
    expect(c.A.attributes.kind).toBe(c.Base.attributes.kind);
    expect(c.B.attributes.id).toBe(c.Base.attributes.id);
    expect(c.A.attributes.a.enumValues).toBe(c.A.attributes.kind.enumValues);
    expect(c.B.children.Part).toBe(c.Base.children.Part);
    expect(Bun.deepEquals(back.model, fresh, true)).toBe(true);
    expect(JSON.stringify(back.model)).toBe(JSON.stringify(fresh));
  });

  test.skipIf(!existsSync(join(CORPORA, "ra3-xsd")))(
    "the RA3 set read back from the cache is strictly equal to a fresh load",
    () => {
      const xsd = join(CORPORA, "ra3-xsd");
      const cache = mkdtempSync(join(tmpdir(), "ra3-schema-cache-"));
      roots.push(cache);
      const fresh = loadSchema(xsd);
      const written = loadSchemaCached(xsd, cache);
      expect([written.fromCache, written.cacheWarning]).toEqual([false, null]);
      const { fromCache, cacheFile: _file, cacheWarning: _warning, ...back } = loadSchemaCached(xsd, cache);
      expect(fromCache).toBe(true);
      expect(Bun.deepEquals(back, fresh, true)).toBe(true);
      expect(JSON.stringify(back)).toBe(JSON.stringify(fresh));
    },
    60_000,
  );

  // Fails if a type or an attribute naming a pool entry that is not there is read as undefined.
  test("a cache file whose types point outside its pools is ignored and rewritten", () => {
    const { xsd, cache } = setup({
      "CnC3Types.xsd": text(`<xs:include schemaLocation="Types.xsd" />`),
      "Types.xsd": inherited,
    });
    const first = loadSchemaCached(xsd, cache);
    const bytes = readFileSync(first.cacheFile);
    const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true);
    const json = (from: number, to?: number) => JSON.parse(new TextDecoder().decode(bytes.subarray(from, to)));
    const header = json(8, 8 + length);
    const chunk: [string, object][] = json(8 + length);
    /** A cache file of `head` and one chunk `types` (the header's chunk length made to fit). */
    const file = (head: Record<string, unknown>, types: unknown): Uint8Array => {
      const body = new TextEncoder().encode(JSON.stringify(types));
      const h = new TextEncoder().encode(JSON.stringify({ ...head, chunks: [body.length] }));
      const out = new Uint8Array(8 + h.length + body.length);
      out.set(bytes.subarray(0, 4));
      new DataView(out.buffer).setUint32(4, h.length, true);
      out.set(h, 8);
      out.set(body, 8 + h.length);
      return out;
    };
    // The file as written, re-framed by `file`, is read from the cache (the variants below fail on their change).
    writeFileSync(first.cacheFile, file(header, chunk));
    expect(loadSchemaCached(xsd, cache).fromCache).toBe(true);
    const fresh = loadSchema(xsd);
    const variants = [
      file({ ...header, pools: { ...header.pools, attributes: [] } }, chunk), // no attribute to point at
      file({ ...header, pools: { ...header.pools, enums: [] } }, chunk), // an enumeration index pointing nowhere
      file(header, chunk.map(([n, t]) => [n, { ...t, children: [99] }])), // child 99 of 1
      file({ ...header, pools: undefined }, chunk),
    ];
    for (const v of variants) {
      writeFileSync(first.cacheFile, v);
      const again = loadSchemaCached(xsd, cache);
      expect([again.fromCache, again.cacheWarning]).toEqual([false, null]);
      expect(again.model).toEqual(fresh.model!);
      expect(loadSchemaCached(xsd, cache).fromCache).toBe(true);
    }
  });

  test("a cache file cut short, with a bad chunk, or in the old one-piece layout is ignored and rewritten", () => {
    const { xsd, cache } = setup(manyTypes(300));
    const first = loadSchemaCached(xsd, cache);
    const bytes = readFileSync(first.cacheFile);
    const fresh = loadSchema(xsd);
    const broken = [
      bytes.subarray(0, bytes.length - 10), // the last chunk cut short
      Uint8Array.from([...bytes.subarray(0, bytes.length - 40), ...new Array(40).fill(0xc1)]), // 0xc1: never valid
      new Packr({ structuredClone: true }).pack({
        format: 2,
        dir: "x",
        stamps: [],
        result: fresh,
      }), // the one-piece layout of format 2
      bytes.subarray(0, 6),
    ];
    for (const b of broken) {
      writeFileSync(first.cacheFile, b);
      const again = loadSchemaCached(xsd, cache);
      expect([again.fromCache, again.cacheWarning]).toEqual([false, null]);
      expect(again.model).toEqual(fresh.model!);
      expect(readFileSync(first.cacheFile)).toEqual(bytes);
      expect(loadSchemaCached(xsd, cache).fromCache).toBe(true);
    }
  });
});
