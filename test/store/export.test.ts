// The public export: the committed JSON Schema matches the zod schema, and the sample mod exports to JSON
// and msgpack that read back, validate, and hold the expected rows.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Packr } from "../../src/store/msgpack.ts";
import { resolveConfig } from "../../src/workspace/config.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { buildPublicSnapshot, type ExportMeta, exportSnapshot, parseExport } from "../../src/store/export.ts";
import { EXPORT_SCHEMA_VERSION, snapshotJsonSchemaText } from "../../src/store/export-schema.ts";
import { CORPORA, REPO, SAMPLE } from "./records.ts";

const SCHEMA_FILE = join(REPO, "docs", "snapshot.schema.json");
const home = mkdtempSync(join(tmpdir(), "ra3-export-home-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const cfg = resolveConfig({ project: SAMPLE, sdk: "", schema: null, home });
if ("envError" in cfg) throw new Error(cfg.envError);
const ws = new Workspace(cfg);
await ws.build();
const linked = ws.linked!;
const META: ExportMeta = {
  toolVersion: "9.9.9",
  generatedAt: "2026-01-02T03:04:05.000Z",
  buildId: 4,
  phase: "art",
  complete: true,
  stale: false,
  stats: { totalMs: 12.5 },
};

describe("docs/snapshot.schema.json", () => {
  test("is exactly what the zod schema generates (UPDATE_SNAPSHOT_SCHEMA=1 rewrites it)", () => {
    const generated = snapshotJsonSchemaText();
    if (process.env.UPDATE_SNAPSHOT_SCHEMA === "1") writeFileSync(SCHEMA_FILE, generated);
    expect(readFileSync(SCHEMA_FILE, "utf8")).toBe(generated);
    const schema = JSON.parse(generated);
    expect(schema.required).toEqual([
      "schemaVersion",
      "tool",
      "project",
      "sdk",
      "generatedAt",
      "buildId",
      "phase",
      "complete",
      "stale",
      "stats",
      "files",
      "assets",
      "defines",
      "references",
      "includes",
      "strings",
      "diagnostics",
    ]);
  });
});

describe("export of the sample mod", () => {
  const json = exportSnapshot(linked, ws.core, META, "json");
  const msgpack = exportSnapshot(linked, ws.core, META, "msgpack");
  const parsedJson = parseExport(json, "json");
  const parsedMsgpack = parseExport(msgpack, "msgpack");
  if (!parsedJson.ok) throw new Error(parsedJson.message);
  if (!parsedMsgpack.ok) throw new Error(parsedMsgpack.message);
  const s = parsedJson.snapshot;

  test("JSON and msgpack read back, validate and carry the same content", () => {
    expect(parsedMsgpack.snapshot).toEqual(s);
    expect(JSON.parse(new TextDecoder().decode(json))).toEqual(new Packr({ useRecords: false }).unpack(msgpack));
    expect(s).toEqual(buildPublicSnapshot(linked, ws.core, META));
  });

  test("the header", () => {
    const { files, assets, defines, references, includes, strings, diagnostics, stats, ...head } = s;
    expect(head).toEqual({
      schemaVersion: EXPORT_SCHEMA_VERSION,
      tool: { name: "ra3", version: "9.9.9" },
      project: SAMPLE,
      sdk: null,
      generatedAt: "2026-01-02T03:04:05.000Z",
      buildId: 4,
      phase: "art",
      complete: true,
      stale: false,
    });
    expect(stats).toEqual({ ...linked.stats, totalMs: 12.5 });
    expect(stats).toMatchObject({ files: 16, projectFiles: 15, activeFiles: 13, assets: 28, defines: 3 });
    expect([files.length, assets.length, defines.length, references.length, strings.length]).toEqual([
      16,
      28,
      3,
      linked.sites.length,
      2,
    ]);
    expect(includes.length).toBe(linked.includes.length);
    expect(diagnostics.map((d) => d.code)).toEqual(
      linked.diagnostics.filter((d) => d.file === null).map((d) => d.code),
    );
  });

  test("files: relative paths, kind, stream, stamps, diagnostics", () => {
    const file = (p: string) => s.files.find((f) => f.path === p)!;
    const mod = readFileSync(join(SAMPLE, "Data", "Mod.xml"));
    expect(file("Data/Mod.xml")).toMatchObject({
      kind: "xml",
      root: "project",
      stream: "static",
      streams: ["static"],
      active: true,
      size: mod.length,
      diagnostics: [],
    });
    expect(typeof file("Data/Mod.xml").mtimeMs).toBe("number");
    expect(file("Data/Includes/Defines.xml")).toMatchObject({
      stream: "static",
      streams: ["static", "global:MapMetaData_Global"],
    });
    expect(file("Art/AU/AUUnusedProp.w3x")).toMatchObject({ kind: "art", stream: null, streams: [], active: false });
    expect(file("Data/Standalone.xml").diagnostics).toEqual([
      {
        code: "include-not-found",
        severity: "warning",
        message: 'include "Includes/NotWrittenYet.xml" was not found',
        line: 6,
        column: 31,
      },
    ]);
    expect(s.files.map((f) => f.path)).toEqual([...s.files.map((f) => f.path)].sort());
  });

  test("assets, defines, references, includes and strings rows", () => {
    expect(s.assets.find((a) => a.id === "AlliedAthenaCannon")).toEqual({
      type: "GameObject",
      id: "AlliedAthenaCannon",
      file: "Data/Includes/Allied Units/AthenaCannon.xml",
      line: 11,
      column: 7,
      origin: "project",
      stream: "static",
      streams: ["static"],
      state: "compiled",
      active: true,
      fileHasErrors: false,
    });
    expect(s.defines).toEqual([
      { name: "ATHENA_RANGE", value: "350", file: "Data/Includes/Defines.xml", line: 4, state: "compiled" },
      { name: "ATHENA_DAMAGE", value: "120", file: "Data/Includes/Defines.xml", line: 5, state: "compiled" },
      { name: "WRECK_BURN_DAMAGE", value: "15", file: "Data/Includes/Defines.xml", line: 6, state: "compiled" },
    ]);
    const inherit = s.references.find((r) => r.kind === "inheritFrom" && r.from?.id === "AlliedAthenaCannon")!;
    expect(inherit).toEqual({
      from: { type: "GameObject", id: "AlliedAthenaCannon" },
      to: { type: "GameObject", id: "BaseVehicle" },
      status: "resolved",
      value: "BaseVehicle",
      kind: "inheritFrom",
      element: "GameObject",
      parent: "AssetDeclaration",
      attribute: "inheritFrom",
      file: "Data/Includes/Allied Units/AthenaCannon.xml",
      line: 12,
      column: 16,
      state: "compiled",
      confirmedByManifest: false,
      unspliced: false,
    });
    expect(s.references.filter((r) => r.to === null).length).toBe(
      linked.sites.filter((x) => x.targets.length === 0).length,
    );
    expect(s.includes.find((i) => i.source === "includes/defines.xml")).toMatchObject({
      to: "Data/Includes/Defines.xml",
      type: "all",
    });
    expect(s.includes.find((i) => i.source === "Includes/NotWrittenYet.xml")).toMatchObject({
      from: "Data/Standalone.xml",
      to: null,
      line: 6,
    });
    expect(s.strings).toEqual([
      { key: "Name:AlliedAthenaCannon", text: "Athena Cannon", file: "Misc/Data/Mod.str", line: 3 },
      {
        key: "Desc:AlliedAthenaCannon",
        text: "Long-range satellite-guided artillery.\nWeak up close.",
        file: "Misc/Data/Mod.str",
        line: 7,
      },
    ]);
  });

  test("the JSON has one top-level key and one row per line", () => {
    const lines = new TextDecoder().decode(json).split("\n");
    expect(lines[0]).toBe("{");
    expect(lines[1]).toBe(' "schemaVersion": 2,');
    expect(lines).toContain(' "files": [');
    expect(lines.filter((l) => l.startsWith('  {"path":')).length).toBe(16);
  });
});

const TW = join(CORPORA, "tw-sdk");
describe("export in SDK mode", () => {
  test.skipIf(!existsSync(TW))(
    "TW's Commander mod with the SDK: validates; SDK files and assets are relative to the SDK root",
    async () => {
      const twCfg = resolveConfig({ project: join(TW, "Mods", "Commander"), sdk: TW, schema: null, home });
      if ("envError" in twCfg) throw new Error(twCfg.envError);
      const tw = new Workspace(twCfg);
      await tw.build();
      const parsed = parseExport(exportSnapshot(tw.linked!, tw.core, META, "msgpack"), "msgpack");
      if (!parsed.ok) throw new Error(parsed.message);
      const s = parsed.snapshot;
      expect(s.sdk).toBe(TW);
      expect(s.files.filter((f) => f.root === "project").map((f) => f.path)).toEqual([
        "data/AI/GDICommander.xml",
        "data/AI/GDICommanderOpeningMoves.xml",
        "data/AI/GDICommanderStates.xml",
        "data/Mod.xml",
        "data/mod.str",
      ]);
      expect(s.files.some((f) => f.root === "sdk" && f.path.startsWith("CnC3Xml/"))).toBe(true);
      expect(s.files.every((f) => f.root !== null)).toBe(true);
      expect(new Set(s.assets.map((a) => a.origin))).toEqual(new Set(["project", "sdk", "manifest"]));
      const manifestAsset = s.assets.find((a) => a.origin === "manifest")!;
      expect(manifestAsset.file.startsWith("BuiltMods/")).toBe(true);
      expect(s.assets.length).toBe(tw.linked!.assets.length);
      expect(s.references.length).toBe(tw.linked!.sites.length);
    },
    60_000,
  );
});

describe("parseExport", () => {
  test("bad bytes and schema violations are reported, not thrown", () => {
    const bad = parseExport(new TextEncoder().encode("{ nope"), "json");
    expect(!bad.ok && bad.message.startsWith("the export is not valid json: ")).toBe(true);
    const s = buildPublicSnapshot(linked, ws.core, META);
    const { files: _files, ...noFiles } = s;
    expect(parseExport(new TextEncoder().encode(JSON.stringify(noFiles)), "json")).toEqual({
      ok: false,
      message: "the export does not match the schema at files: Invalid input: expected array, received undefined",
    });
    const wrongKind = { ...s, references: [{ ...s.references[0], kind: "guess" }] };
    expect(parseExport(new TextEncoder().encode(JSON.stringify(wrongKind)), "json")).toEqual({
      ok: false,
      message:
        'the export does not match the schema at references.0.kind: Invalid option: expected one of "attribute"|"content"|"inheritFrom"|"default"|"name"|"heuristic"|"manifest"',
    });
    // Additive fields are accepted (the stability promise).
    const extra = { ...s, newTopLevel: 1, assets: s.assets.map((a) => ({ ...a, extra: true })) };
    expect(parseExport(new TextEncoder().encode(JSON.stringify(extra)), "json").ok).toBe(true);
  });
});
