// The link's diagnostic cap (issue 15 item 4): the link holds at most 200 diagnostics of one file, code and
// severity — the first ones in the index's order, the ones the answers list — and counts the rest in
// `omittedDiagnostics` (one group per file, code and severity, merged with the records' counts), so the index
// and its snapshot stay small while every answer says what it said when every diagnostic was held. The
// capper is checked against a sort and cap of everything, on random mixtures split into parts; the index's
// counts cold, warm from the snapshot, after edits (patched and renumbering links equal to a full link) and
// in a server.
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DiagnosticCapper } from "../../src/index/link-caps.ts";
import { link } from "../../src/index/link.ts";
import type { Diagnostic, LinkedIndex, OmittedDiagnostic } from "../../src/index/linked.ts";
import type { Severity } from "../../src/index/records.ts";
import { capDiagnostics, DIAGNOSTIC_CAPS } from "../../src/query/diagnostic-caps.ts";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { connect, resultOf } from "../mcp/harness.ts";
import { memIndex, rel, ROOT } from "./fixture.ts";
import { linkedDifference } from "./linked-equality.ts";

const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");
const schema = new Schema(loadSchema(join(SAMPLE, "Schemas", "xsd")).model!);

// ---- the capper, against a sort and cap of everything ----

/** A small deterministic generator (the test must be reproducible). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The index's order of diagnostics (its sort is stable: equal places keep the order they were made in). */
function compare(a: Diagnostic, b: Diagnostic): number {
  const fa = a.file ?? "";
  const fb = b.file ?? "";
  return (fa < fb ? -1 : fa > fb ? 1 : 0) || a.line - b.line || a.column - b.column ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

/** What holding everything and capping afterwards gives: the first 200 of each group kept, the rest counted. */
function reference(all: readonly Diagnostic[]): { kept: Diagnostic[]; omitted: OmittedDiagnostic[] } {
  const sorted = [...all].sort(compare);
  const n = new Map<string, number>();
  const groups = new Map<string, { -readonly [K in keyof OmittedDiagnostic]: OmittedDiagnostic[K] }>();
  const kept: Diagnostic[] = [];
  for (const d of sorted) {
    const k = `${d.file}\u0000${d.code}\u0000${d.severity}`;
    const c = (n.get(k) ?? 0) + 1;
    n.set(k, c);
    if (c <= 200 || d.file === null) kept.push(d);
    else if (groups.has(k)) groups.get(k)!.count++;
    else groups.set(k, { file: d.file, code: d.code, severity: d.severity, count: 1, line: d.line, column: d.column });
  }
  return { kept, omitted: [...groups.values()].sort(compare as never) };
}

const CODES: readonly [string, Severity][] = [
  ["undefined-define", "warning"],
  ["unresolved-reference", "warning"],
  ["duplicate-id", "error"],
  ["unknown-element", "warning"],
  ["duplicate-id", "warning"],
];

describe("DiagnosticCapper", () => {
  test("200 random mixtures in random order, capped in parts then merged: what capping everything gives", () => {
    const next = random(7);
    let over = 0;
    for (let round = 0; round < 200; round++) {
      const all: Diagnostic[] = [];
      const n = Math.floor(next() * (round % 4 === 0 ? 3000 : 900));
      // Some rounds in document order (the usual case), the others not.
      let line = 1;
      for (let i = 0; i < n; i++) {
        const [code, severity] = CODES[Math.floor(next() * (round % 2 ? 2 : CODES.length))];
        line = round % 3 === 0 ? line + Math.floor(next() * 2) : 1 + Math.floor(next() * 300);
        all.push({
          code,
          severity,
          message: `#${i}`,
          file: next() < 0.02 ? null : ["/m/Data/A.xml", "/m/Data/B.xml"][Math.floor(next() * 2)],
          line,
          column: 1 + Math.floor(next() * 3),
        });
      }
      // Parts of random lengths, each capped on its own (as a file's or a segment's findings are).
      const merged = new DiagnosticCapper();
      for (let at = 0; at < all.length;) {
        const end = Math.min(all.length, at + 1 + Math.floor(next() * 800));
        const part = new DiagnosticCapper();
        for (let i = at; i < end; i++) part.add(all[i]);
        const r = part.result();
        for (const d of r.diagnostics) merged.add(d);
        for (const o of r.omitted) merged.addOmitted(o);
        at = end;
      }
      const got = merged.result();
      const expected = reference(all);
      if (expected.omitted.length) over++;
      expect([...got.diagnostics].sort(compare)).toEqual(expected.kept);
      expect([...got.omitted].sort(compare as never)).toEqual(expected.omitted);
    }
    expect(over).toBeGreaterThan(25); // the cap was reached in many of them
  });

  test("countedPast before add (a finding counted without being made) gives what add alone gives", () => {
    // Past the cap: at the last kept one's very place and after it (counted), then on its line before it
    // (not counted: kept instead of it).
    const at = (i: number, line: number, column: number): Diagnostic => ({
      code: "unresolved-reference",
      severity: "warning",
      message: `#${i}`,
      file: "/m/Data/A.xml",
      line,
      column,
    });
    const edge = Array.from({ length: 200 }, (_, i) => at(i, i + 1, 3));
    edge.push(at(200, 200, 3), at(201, 201, 1), at(202, 200, 1));
    const plainEdge = new DiagnosticCapper();
    const askedEdge = new DiagnosticCapper();
    const countedEdge: number[] = [];
    edge.forEach((d, i) => {
      plainEdge.add(d);
      if (askedEdge.countedPast(d.file!, d.code, d.severity, d.line, d.column)) countedEdge.push(i);
      else askedEdge.add(d);
    });
    expect(countedEdge).toEqual([200, 201]);
    expect(askedEdge.result()).toEqual(plainEdge.result());
    expect(plainEdge.result().omitted.map((o) => [o.count, o.line, o.column])).toEqual([[3, 200, 3]]);
    expect(plainEdge.result().diagnostics.at(-1)!.message).toBe("#202");
    const next = random(11);
    let counted = 0;
    for (let round = 0; round < 100; round++) {
      const all: Diagnostic[] = [];
      const n = 1000 + Math.floor(next() * 3000);
      let line = 1;
      for (let i = 0; i < n; i++) {
        const [code, severity] = CODES[Math.floor(next() * (round % 2 ? 2 : CODES.length))];
        // Mostly in document order (repeated positions too), some rounds not.
        line = round % 4 === 3 ? 1 + Math.floor(next() * 300) : line + Math.floor(next() * 2);
        all.push({
          code,
          severity,
          message: `#${i}`,
          file: ["/m/Data/A.xml", "/m/Data/B.xml"][Math.floor(next() * 2)],
          line,
          column: 1 + Math.floor(next() * 3),
        });
      }
      const plain = new DiagnosticCapper();
      const asked = new DiagnosticCapper();
      for (const d of all) {
        plain.add(d);
        if (asked.countedPast(d.file!, d.code, d.severity, d.line, d.column)) counted++;
        else asked.add(d);
      }
      expect(asked.result()).toEqual(plain.result());
    }
    expect(counted).toBeGreaterThan(10_000); // most past the cap were counted without being made
  });
});

describe("the output's caps over what the link holds", () => {
  test("a named file's references, added after the index's diagnostics, stay last among the unlisted groups", () => {
    // The index's part (sorted): 300 undefined defines on lines 301–600; then the references `ra3 check FILE`
    // adds for a file no entry point includes: 300 on lines 1–300.
    const made = (code: string, from: number): Diagnostic[] =>
      Array.from({ length: 300 }, (_, i) => ({
        code,
        severity: "warning",
        message: `${code} ${i}`,
        file: "Data/Draft.xml",
        line: from + i,
        column: 5,
      }));
    const index = made("undefined-define", 301);
    const added = made("unresolved-reference", 1);
    const capper = new DiagnosticCapper();
    for (const d of index) capper.add(d);
    const held = capper.result();
    const expected = capDiagnostics([...index, ...added]);
    expect(expected.unlisted.map((u) => `${u.line} ${u.code} ${u.count}`)).toEqual([
      "501 undefined-define 100",
      "201 unresolved-reference 100",
    ]);
    const got = capDiagnostics([...held.diagnostics, ...added], DIAGNOSTIC_CAPS, held.omitted, held.diagnostics.length);
    expect(got).toEqual(expected);
  });
});

// ---- the index ----

const HEAD = '<?xml version="1.0" encoding="utf-8"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n';

/**
 * Mod.xml (line 5 on): one weapon with 1,800 nuggets (lines 6–1805, the value at column 31), in cycles of 18:
 * 10 name `$UNDEF` (no define declares it), 5 a missing weapon, 3 the GameObject G (a wrong type); then 250
 * weapons W0…W249 (lines 1807–2056; `extra` goes before the big weapon). Dups.xml: the same 250 ids again
 * (lines 3–252; the duplicates are blamed on the later of the two in the index's file order), each with
 * AttackRange `$UNDEF` when `defines`.
 */
function modXml(missing = "Missing", extra = ""): string {
  const nuggets = Array.from({ length: 1800 }, (_, i) => {
    const k = i % 18;
    return `<FireWeaponNugget WeaponName="${k < 10 ? "$UNDEF" : k < 15 ? missing : "G"}" />\n`;
  });
  return HEAD + '<Includes><Include type="all" source="Dups.xml" /></Includes>\n<GameObject id="G" />\n' + extra +
    '<WeaponTemplate id="Big" AttackRange="1"><Nuggets>\n' + nuggets.join("") + "</Nuggets></WeaponTemplate>\n" +
    Array.from({ length: 250 }, (_, i) => `<WeaponTemplate id="W${i}" />\n`).join("") + "</AssetDeclaration>\n";
}

function dupsXml(defines: boolean, extra = ""): string {
  return HEAD + extra +
    Array.from({ length: 250 }, (_, i) => `<WeaponTemplate id="W${i}"${defines ? ' AttackRange="$UNDEF"' : ""} />\n`)
      .join("") +
    "</AssetDeclaration>\n";
}

/** The held diagnostics per file and code, and the counted groups, of an index (paths relative). */
function shape(linked: LinkedIndex) {
  const held = new Map<string, number>();
  for (const d of linked.diagnostics) {
    const k = `${d.file ? rel(d.file) : "-"} ${d.code}`;
    held.set(k, (held.get(k) ?? 0) + 1);
  }
  return {
    held: Object.fromEntries(held),
    omitted: linked.omittedDiagnostics.map((g) => `${rel(g.file)}:${g.line}:${g.column} ${g.code} ${g.count}`),
    total: linked.stats.diagnostics,
  };
}

describe("the link holds the first 200 of each file and code", () => {
  test("exact held and counted groups; patched and renumbering links equal a full link", () => {
    const files: Record<string, string> = {
      "Data/Mod.xml": modXml(),
      "Data/Dups.xml": dupsXml(true),
      "sdk:Schemas/xsd/CnC3Types.xsd": "",
    };
    const { core, ports, linked } = memIndex(files, schema);
    expect(shape(linked)).toEqual({
      held: {
        "Data/Dups.xml duplicate-id": 200,
        "Data/Dups.xml undefined-define": 200,
        "Data/Mod.xml undefined-define": 200,
        "Data/Mod.xml unresolved-reference": 200,
        "Data/Mod.xml wrong-type-reference": 200,
      },
      omitted: [
        "Data/Dups.xml:203:21 duplicate-id 50",
        "Data/Dups.xml:203:40 undefined-define 50",
        "Data/Mod.xml:366:31 undefined-define 800",
        "Data/Mod.xml:736:31 unresolved-reference 300",
        "Data/Mod.xml:1211:31 wrong-type-reference 100",
      ],
      total: 2300,
    });
    // The held ones are the first: Mod.xml's unresolved references on lines 16–20, 34–38, … up to 718–722.
    const unresolved = linked.diagnostics.filter((d) => d.code === "unresolved-reference").map((d) => d.line);
    expect([unresolved[0], unresolved[5], unresolved[199]]).toEqual([16, 34, 722]);
    expect(linkedDifference(linked, link(core, ports.inputs))).toBeNull();

    const steps: [string, string, string, ReturnType<typeof shape>["omitted"], number][] = [
      // A value edit in the big file: its segment is resolved again (patched link).
      ["Data/Mod.xml", modXml("W7"), "patched", [
        "Data/Dups.xml:203:21 duplicate-id 50",
        "Data/Dups.xml:203:40 undefined-define 50",
        "Data/Mod.xml:366:31 undefined-define 800",
        "Data/Mod.xml:1211:31 wrong-type-reference 100",
      ], 1800],
      // The other file's defines gone: the big file's findings and segment are taken over (patched link).
      ["Data/Dups.xml", dupsXml(false), "patched", [
        "Data/Dups.xml:203:21 duplicate-id 50",
        "Data/Mod.xml:366:31 undefined-define 800",
        "Data/Mod.xml:1211:31 wrong-type-reference 100",
      ], 1550],
      // Back to missing weapons, and assets gained above the duplicates (a renumbering link).
      ["Data/Mod.xml", modXml(), "patched", [
        "Data/Dups.xml:203:21 duplicate-id 50",
        "Data/Mod.xml:366:31 undefined-define 800",
        "Data/Mod.xml:736:31 unresolved-reference 300",
        "Data/Mod.xml:1211:31 wrong-type-reference 100",
      ], 2050],
      ["Data/Dups.xml", dupsXml(false, '<WeaponTemplate id="X1" /><WeaponTemplate id="X2" />\n'), "renumbered", [
        "Data/Dups.xml:204:21 duplicate-id 50",
        "Data/Mod.xml:366:31 undefined-define 800",
        "Data/Mod.xml:736:31 unresolved-reference 300",
        "Data/Mod.xml:1211:31 wrong-type-reference 100",
      ], 2050],
    ];
    for (const [file, text, what, omitted, total] of steps) {
      const before = core.link(ports.inputs);
      core.applyChanges([{ path: `${ROOT}/${file}`, bytes: new TextEncoder().encode(text) }]);
      const next = core.link(ports.inputs);
      expect([what, core.lastLinkFullBecause]).toEqual([what, null]);
      expect([what, linkedDifference(next, link(core, ports.inputs))]).toEqual([what, null]);
      expect([what, shape(next).omitted, shape(next).total]).toEqual([what, omitted, total]);
      expect(next).not.toBe(before);
    }
  });
});

// ---- through the CLI and a server: cold, warm from the snapshot, after an edit ----

const base = mkdtempSync(join(tmpdir(), "ra3-link-caps-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const MOD = join(base, "Mod");
const SDK = join(base, "SDK");
mkdirSync(join(MOD, "Data"), { recursive: true });
mkdirSync(join(SDK, "Schemas", "xsd"), { recursive: true });
writeFileSync(join(SDK, "Schemas", "xsd", "CnC3Types.xsd"), ""); // a stand-in SDK: references are judged
cpSync(join(SAMPLE, "Schemas"), join(MOD, "Schemas"), { recursive: true });
const HOME = join(base, "home");

async function cli(...args: string[]) {
  const io = memoryIo(MOD, { RA3_HOME: HOME });
  const code = await run([...args, "--sdk", SDK, "--no-progress"], io);
  return { code, out: io.stdout, err: io.stderr };
}

async function counts() {
  const j = JSON.parse((await cli("check", "--json")).out).result;
  return { total: j.total, errors: j.errors, byCode: j.byCode, listed: j.listed, unlisted: j.unlisted };
}

const UNLISTED = [
  { at: "Data/Dups.xml:203:40", severity: "warning", code: "undefined-define", count: 50 },
  { at: "Data/Mod.xml:366:31", severity: "warning", code: "undefined-define", count: 800 },
  { at: "Data/Mod.xml:736:31", severity: "warning", code: "unresolved-reference", count: 300 },
  { at: "Data/Mod.xml:1211:31", severity: "warning", code: "wrong-type-reference", count: 100 },
  // On disk Dups.xml comes first: the duplicates are Mod.xml's (W200 at 2007:21).
  { at: "Data/Mod.xml:2007:21", severity: "error", code: "duplicate-id", count: 50 },
];

describe("the counts through the CLI and a server", () => {
  test("cold, warm from the snapshot (the same answers), the export, ra3 file, after an edit", async () => {
    writeFileSync(join(MOD, "Data", "Mod.xml"), modXml());
    writeFileSync(join(MOD, "Data", "Dups.xml"), dupsXml(true));
    const expected = {
      total: 2300,
      errors: 250,
      byCode: {
        "undefined-define": 1250,
        "unresolved-reference": 500,
        "wrong-type-reference": 300,
        "duplicate-id": 250,
      },
      listed: 1000,
      unlisted: UNLISTED,
    };
    const cold = JSON.parse((await cli("index", "--json")).out).result;
    expect([cold.start.mode, cold.diagnostics.errors, cold.diagnostics.warnings]).toEqual(["cold", 250, 2050]);
    expect(await counts()).toEqual(expected);
    const warm = JSON.parse((await cli("index", "--json")).out).result;
    expect([warm.start.mode, warm.diagnostics.errors, warm.diagnostics.warnings]).toEqual(["warm", 250, 2050]);
    expect(await counts()).toEqual(expected);
    expect((await cli("check")).out.split("\n").slice(-2)).toEqual([
      "250 errors, 2050 warnings in 2 files (1300 of the diagnostics are not listed)",
      "",
    ]);
    expect((await cli("file", "Data/Mod.xml")).out).toContain("kind xml, 252 assets, 2050 diagnostics");
    // The export lists the held ones and counts the rest (it held every one before the cap).
    const out = join(base, "export.json");
    expect((await cli("export", "--format", "json", "--out", out)).code).toBe(0);
    const row = JSON.parse(readFileSync(out, "utf8")).files.find((f: { path: string }) => f.path === "Data/Mod.xml");
    expect([row.diagnostics.length, row.omittedDiagnostics]).toEqual([800, [
      { code: "undefined-define", severity: "warning", count: 800, line: 366, column: 31 },
      { code: "unresolved-reference", severity: "warning", count: 300, line: 736, column: 31 },
      { code: "wrong-type-reference", severity: "warning", count: 100, line: 1211, column: 31 },
      { code: "duplicate-id", severity: "error", count: 50, line: 2007, column: 21 },
    ]]);
    // An edit: the missing weapons now name W7; the CLI re-reads the file and links again.
    writeFileSync(join(MOD, "Data", "Mod.xml"), modXml("W7"));
    expect(await counts()).toEqual({
      total: 1800,
      errors: 250,
      byCode: { "undefined-define": 1250, "wrong-type-reference": 300, "duplicate-id": 250 },
      listed: 800,
      unlisted: UNLISTED.filter((u) => u.code !== "unresolved-reference"),
    });
  });

  test("a server: edits while it runs (patched and renumbering links) keep the counts exact", async () => {
    writeFileSync(join(MOD, "Data", "Mod.xml"), modXml());
    writeFileSync(join(MOD, "Data", "Dups.xml"), dupsXml(true));
    const h = await connect(MOD, { home: join(base, "server-home"), sdk: SDK });
    const check = async () => {
      await h.call("get_status", { consistency: "strict" });
      const r = resultOf(await h.call("check_files", { limit: 1 }));
      return [r.total, r.listed, r.unlisted];
    };
    try {
      expect(await check()).toEqual([2300, 1000, UNLISTED]);
      writeFileSync(join(MOD, "Data", "Dups.xml"), dupsXml(false));
      expect(await check()).toEqual([2050, 800, UNLISTED.slice(1)]);
      // An asset more above the big one: every later asset is renumbered and every position moves a line.
      writeFileSync(join(MOD, "Data", "Mod.xml"), modXml("Missing", '<GameObject id="G2" />\n'));
      expect(await check()).toEqual([2050, 800, [
        { at: "Data/Mod.xml:367:31", severity: "warning", code: "undefined-define", count: 800 },
        { at: "Data/Mod.xml:737:31", severity: "warning", code: "unresolved-reference", count: 300 },
        { at: "Data/Mod.xml:1212:31", severity: "warning", code: "wrong-type-reference", count: 100 },
        { at: "Data/Mod.xml:2008:21", severity: "error", code: "duplicate-id", count: 50 },
      ]]);
    } finally {
      await h.close();
    }
  });
});
