// The records' own diagnostic cap (issue 15 item 4): a record holds at most 200 diagnostics of one code and
// severity, the first ones, and counts the rest (with the first one's position); the index, its snapshot, a
// warm start and a patched link carry the counts, so every output says exactly what it said when every
// diagnostic was held. The merge of counted groups into the output caps is checked against the caps applied
// to the whole list, on random mixtures of record and link diagnostics.
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { extractXmlRecord } from "../../src/index/extract-xml.ts";
import { RECORD_DIAGNOSTIC_CAP, type Severity } from "../../src/index/records.ts";
import { capDiagnostics, DIAGNOSTIC_CAPS, type UnlistedDiagnostics } from "../../src/query/diagnostic-caps.ts";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { connect, resultOf } from "../mcp/harness.ts";

const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");
const schema = new Schema(loadSchema(join(SAMPLE, "Schemas", "xsd")).model!);

/**
 * A document: one asset holding `unknown` undeclared elements (lines 4 …), then `attributes` assets with an
 * undeclared attribute each (at column 29), then `missing` assets without an id.
 */
function document(unknown: number, attributes: number, missing: number): string {
  return '<?xml version="1.0" encoding="utf-8"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n' +
    '<WeaponTemplate id="Unknowns" AttackRange="1">\n' + "<Zzz/>\n".repeat(unknown) + "</WeaponTemplate>\n" +
    Array.from({ length: attributes }, (_, i) => `<WeaponTemplate id="W${String(i).padStart(5, "0")}" Zap="1"/>\n`)
      .join("") +
    '<WeaponTemplate AttackRange="2"/>\n'.repeat(missing) + "</AssetDeclaration>\n";
}

describe("a record holds the first 200 of each code and counts the rest", () => {
  test("the cap is the output's cap per code", () => {
    expect(RECORD_DIAGNOSTIC_CAP).toBe(200);
    expect(DIAGNOSTIC_CAPS.perCode).toBe(RECORD_DIAGNOSTIC_CAP);
  });

  test("5,000 unknown elements, 3,000 unknown attributes, 250 assets without an id", () => {
    const rec = extractXmlRecord(document(5000, 3000, 250), schema);
    const held = (code: string) => rec.diagnostics.filter((d) => d.code === code).map((d) => `${d.line}:${d.column}`);
    const lines = (from: number, column: number) => Array.from({ length: 200 }, (_, i) => `${from + i}:${column}`);
    expect(rec.diagnostics.length).toBe(600);
    // The first 200 of each code, in document order.
    expect(held("unknown-element")).toEqual(lines(4, 1));
    expect(held("unknown-attribute")).toEqual(lines(5005, 29));
    expect(held("missing-id")).toEqual(lines(8005, 1));
    expect(rec.omittedDiagnostics).toEqual([
      { code: "unknown-element", severity: "warning", count: 4800, line: 204, column: 1 },
      { code: "unknown-attribute", severity: "warning", count: 2800, line: 5205, column: 29 },
      { code: "missing-id", severity: "error", count: 50, line: 8205, column: 1 },
    ]);
  });

  test("at the cap nothing is counted; one more is", () => {
    expect(extractXmlRecord(document(200, 0, 0), schema).omittedDiagnostics).toEqual([]);
    const over = extractXmlRecord(document(201, 0, 0), schema);
    expect([over.diagnostics.length, over.omittedDiagnostics]).toEqual([200, [
      { code: "unknown-element", severity: "warning", count: 1, line: 204, column: 1 },
    ]]);
  });
});

// ---- the merge, against the caps applied to every diagnostic ----

interface D {
  readonly file: string | null;
  readonly line: number;
  readonly column: number;
  readonly severity: Severity;
  readonly code: string;
  /** Made by the record (capped there) or by the link (always held). */
  readonly record: boolean;
}

/** A small deterministic generator (the test must be reproducible). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** What a record holds and counts of `all` (its `record` diagnostics, per file, code and severity). */
function split(all: readonly D[]): { held: D[]; counted: UnlistedDiagnostics[] } {
  const n = new Map<string, number>();
  const groups = new Map<string, { -readonly [K in keyof UnlistedDiagnostics]: UnlistedDiagnostics[K] }>();
  const held: D[] = [];
  // A record makes its diagnostics in document order: by line and column within a code.
  for (const d of all) {
    if (!d.record) {
      held.push(d);
      continue;
    }
    const k = `${d.file}\u0000${d.code}\u0000${d.severity}`;
    const c = (n.get(k) ?? 0) + 1;
    n.set(k, c);
    if (c <= RECORD_DIAGNOSTIC_CAP) held.push(d);
    else if (groups.has(k)) groups.get(k)!.count++;
    else groups.set(k, { file: d.file, code: d.code, severity: d.severity, count: 1, line: d.line, column: d.column });
  }
  return { held, counted: [...groups.values()] };
}

const CODES: readonly [string, Severity][] = [
  ["unknown-element", "warning"],
  ["unknown-attribute", "warning"],
  ["duplicate-id", "error"],
  ["missing-id", "error"],
  ["unresolved-reference", "warning"],
  ["foreign-xml", "information"],
];

describe("counted groups merged into the output caps", () => {
  test("300 random mixtures: the same listed diagnostics and the same unlisted groups as with every one held", () => {
    const next = random(16);
    let countedSome = 0;
    for (let round = 0; round < 300; round++) {
      const files = ["Data/A.xml", "Data/B.xml", "Data/C.xml"].slice(0, 1 + Math.floor(next() * 3));
      const all: D[] = [];
      for (const file of files) {
        const n = Math.floor(next() * (round % 3 === 0 ? 2500 : 700));
        for (let i = 0; i < n; i++) {
          const [code, severity] = CODES[Math.floor(next() * (round % 2 ? 2 : CODES.length))];
          all.push({
            file,
            line: 1 + Math.floor(next() * 400),
            column: 1 + Math.floor(next() * 3),
            code,
            severity,
            record: next() < 0.8,
          });
        }
      }
      // Sorted as the index sorts them (file, line, column, code).
      all.sort((a, b) =>
        (a.file! < b.file! ? -1 : a.file! > b.file! ? 1 : 0) || a.line - b.line || a.column - b.column ||
        (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)
      );
      const { held, counted } = split(all);
      if (counted.length) countedSome++;
      const expected = capDiagnostics(all);
      const got = capDiagnostics(held, DIAGNOSTIC_CAPS, counted);
      expect(got.listed).toEqual(expected.listed);
      expect(got.unlisted).toEqual(expected.unlisted);
    }
    expect(countedSome).toBeGreaterThan(100); // the cap was reached in many of them
  });
});

// ---- through the index: cold, warm from the snapshot, after an edit, in a server ----

const base = mkdtempSync(join(tmpdir(), "ra3-record-caps-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const MOD = join(base, "Mod");
mkdirSync(join(MOD, "Data"), { recursive: true });
cpSync(join(SAMPLE, "Schemas"), join(MOD, "Schemas"), { recursive: true });
const FILE = join(MOD, "Data", "Mod.xml");
const HOME = join(base, "home");

async function cli(...args: string[]) {
  const io = memoryIo(MOD, { RA3_HOME: HOME });
  const code = await run([...args, "--no-progress"], io);
  return { code, out: io.stdout, err: io.stderr };
}

/** `ra3 check --json`'s counts. */
async function counts() {
  const r = await cli("check", "--json");
  const j = JSON.parse(r.out).result;
  return {
    code: r.code,
    total: j.total,
    errors: j.errors,
    warnings: j.warnings,
    byCode: j.byCode,
    listed: j.listed,
    unlisted: j.unlisted,
  };
}

describe("the counts through the index", () => {
  test("cold, then warm from the snapshot, then after an edit: exact counts each time", async () => {
    writeFileSync(FILE, document(5000, 3000, 250));
    const cold = await cli("index", "--json");
    expect(JSON.parse(cold.out).result.start.mode).toBe("cold");
    const expected = {
      code: 1,
      total: 8250,
      errors: 250,
      warnings: 8000,
      byCode: { "unknown-element": 5000, "unknown-attribute": 3000, "missing-id": 250 },
      listed: 600,
      unlisted: [
        { at: "Data/Mod.xml:204:1", severity: "warning", code: "unknown-element", count: 4800 },
        { at: "Data/Mod.xml:5205:29", severity: "warning", code: "unknown-attribute", count: 2800 },
        { at: "Data/Mod.xml:8205:1", severity: "error", code: "missing-id", count: 50 },
      ],
    };
    expect(await counts()).toEqual(expected);
    const warm = await cli("index", "--json");
    expect(JSON.parse(warm.out).result.start.mode).toBe("warm");
    expect(JSON.parse(warm.out).result.diagnostics).toMatchObject({ errors: 250, warnings: 8000 });
    expect(await counts()).toEqual(expected);
    // The export lists the held ones and, for this file only, the counted groups.
    const out = join(base, "export.json");
    expect((await cli("export", "--format", "json", "--out", out)).code).toBe(0);
    const row = JSON.parse(readFileSync(out, "utf8")).files.find((f: { path: string }) => f.path === "Data/Mod.xml");
    expect([row.diagnostics.length, row.omittedDiagnostics]).toEqual([600, [
      { code: "unknown-element", severity: "warning", count: 4800, line: 204, column: 1 },
      { code: "unknown-attribute", severity: "warning", count: 2800, line: 5205, column: 29 },
      { code: "missing-id", severity: "error", count: 50, line: 8205, column: 1 },
    ]]);
    const text = (await cli("check")).out.split("\n");
    expect(text.slice(-2)).toEqual([
      "250 errors, 8000 warnings in 1 file (7650 of the diagnostics are not listed)",
      "",
    ]);

    // The edit: 100 unknown elements more, no attributes, 10 assets without an id.
    writeFileSync(FILE, document(5100, 0, 10));
    expect(await counts()).toEqual({
      code: 1,
      total: 5110,
      errors: 10,
      warnings: 5100,
      byCode: { "unknown-element": 5100, "missing-id": 10 },
      listed: 210,
      unlisted: [{ at: "Data/Mod.xml:204:1", severity: "warning", code: "unknown-element", count: 4900 }],
    });
  });

  test("a server: an edit while it runs (a patched link) keeps the counts exact", async () => {
    writeFileSync(FILE, document(3000, 0, 0));
    const h = await connect(MOD, { home: join(base, "server-home") });
    try {
      await h.call("get_status", { consistency: "strict" }); // the index is built
      const first = resultOf(await h.call("check_files", { limit: 1 }));
      expect([first.total, first.listed, first.unlisted]).toEqual([3000, 200, [
        { at: "Data/Mod.xml:204:1", severity: "warning", code: "unknown-element", count: 2800 },
      ]]);
      writeFileSync(FILE, document(3000, 300, 0));
      await h.call("get_status", { consistency: "strict" });
      const after = resultOf(await h.call("check_files", { limit: 1 }));
      expect([after.total, after.warnings, after.listed, after.unlisted]).toEqual([3300, 3300, 400, [
        { at: "Data/Mod.xml:204:1", severity: "warning", code: "unknown-element", count: 2800 },
        { at: "Data/Mod.xml:3205:29", severity: "warning", code: "unknown-attribute", count: 100 },
      ]]);
    } finally {
      await h.close();
    }
  });
});

describe("fragments", () => {
  test("a spliced fragment's schema warnings are its splices' (once each; its own counted ones left out); an unspliced one's are its own", async () => {
    const dir = join(base, "Fragments");
    mkdirSync(join(dir, "Data"), { recursive: true });
    cpSync(join(SAMPLE, "Schemas"), join(dir, "Schemas"), { recursive: true });
    writeFileSync(
      join(dir, "Data", "Mod.xml"),
      '<?xml version="1.0" encoding="utf-8"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset" xmlns:xi="http://www.w3.org/2001/XInclude">\n' +
        '<GameObject id="G"><Behaviors><xi:include href="Spliced.xml" xpointer="xmlns(n=uri:ea.com:eala:asset) xpointer(/n:Behaviors/child::*)" /></Behaviors></GameObject>\n' +
        // The same fragment spliced into a second asset: its warnings are the same ones, each counted once.
        '<GameObject id="H"><Behaviors><xi:include href="Spliced.xml" xpointer="xmlns(n=uri:ea.com:eala:asset) xpointer(/n:Behaviors/child::*)" /></Behaviors></GameObject>\n' +
        "</AssetDeclaration>\n",
    );
    const fragment = '<?xml version="1.0"?>\n<Behaviors xmlns="uri:ea.com:eala:asset">\n' + "<Zzz/>\n".repeat(300) +
      "</Behaviors>\n";
    writeFileSync(join(dir, "Data", "Spliced.xml"), fragment);
    writeFileSync(join(dir, "Data", "Alone.xml"), fragment);
    const io = memoryIo(dir, { RA3_HOME: join(base, "fragments-home") });
    expect(await run(["check", "--json", "--no-progress"], io)).toBe(0);
    const j = JSON.parse(io.stdout).result;
    expect([j.total, j.byCode, j.listed, j.unlisted]).toEqual([
      601,
      { "unknown-element": 600, "fragment-not-spliced": 1 },
      401,
      [
        { at: "Data/Alone.xml:203:1", severity: "warning", code: "unknown-element", count: 100 },
        { at: "Data/Spliced.xml:203:1", severity: "warning", code: "unknown-element", count: 100 },
      ],
    ]);
  });
});
