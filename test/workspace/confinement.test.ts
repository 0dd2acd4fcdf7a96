/**
 * Issue 15 item 1 on a real disk: a hostile mod whose includes and links point outside the folders ra3
 * reads (the project, the SDK, the mod's parent and grandparent). Nothing there is read, indexed or
 * served; each such include and link gets a diagnostic naming it; and every answer about an outside
 * target is the same whether it exists or not (byte-identical apart from the name written), through
 * the CLI, the MCP tools, the resources and the completions.
 *
 * Layout: TMP/a/b/mods/Evil is the mod (roots: it, TMP/a/b/mods, TMP/a/b); TMP/a/secret holds
 * `present.xml` (defining GameObject Secret) and no `absent.xml`.
 */
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import * as fs from "node:fs";
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { insideRoots } from "../../src/project/paths.ts";
import { exportSnapshot, parseExport } from "../../src/store/export.ts";
import { OUTSIDE_REASON } from "../../src/project/search-paths.ts";
import { resolveConfig } from "../../src/workspace/config.ts";
import { readSourceText } from "../../src/workspace/source-text.ts";
import { statStamp, Workspace } from "../../src/workspace/workspace.ts";
import { emptyRecord } from "../../src/index/records.ts";
import { scanProjectFiles } from "../../src/project/scan.ts";
import { SnapshotStore } from "../../src/store/snapshot-store.ts";
import { inspectSnapshot, saveSnapshot, schemaKeyOf, warmStart } from "../../src/workspace/snapshots.ts";
import { bodyOf, connect, type Harness, type Json, resultOf } from "../mcp/harness.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

const MOD_XML = `<?xml version="1.0" encoding="utf-8"?>
<AssetDeclaration xmlns="uri:ea.com:eala:asset" xmlns:xi="http://www.w3.org/2001/XInclude">
	<Includes>
		<Include type="all" source="../../../../secret/present.xml" />
		<Include type="all" source="..\\..\\..\\..\\secret\\absent.xml" />
		<Include type="all" source="DATA:../../secret/present.xml" />
		<Include type="all" source="C:/secret/present.xml" />
		<Include type="all" source="Linked.xml" />
		<Include type="all" source="LinkedMissing.xml" />
		<Include type="all" source="SharedLink/present.xml" />
		<Include type="all" source="SharedLink/absent.xml" />
		<Include type="all" source="Units.xml" />
	</Includes>
	<GameObject id="Tank">
		<xi:include href="../../../../secret/present.xml" />
	</GameObject>
</AssetDeclaration>
`;
const SECRET_XML = `<?xml version="1.0" encoding="utf-8"?>
<AssetDeclaration xmlns="uri:ea.com:eala:asset"><GameObject id="Secret" /></AssetDeclaration>
`;
const UNITS_XML = `<?xml version="1.0" encoding="utf-8"?>
<AssetDeclaration xmlns="uri:ea.com:eala:asset">
	<GameObject id="Unit" />
</AssetDeclaration>
`;

/** A fresh hostile mod; returns its folders. */
function hostile(): { top: string; mod: string; data: string; secret: string } {
  const top = realpathSync(TMP.make("ra3-hostile-"));
  const mod = join(top, "a", "b", "mods", "Evil");
  const data = join(mod, "Data");
  const secret = join(top, "a", "secret");
  mkdirSync(data, { recursive: true });
  mkdirSync(secret);
  writeFileSync(join(secret, "present.xml"), SECRET_XML);
  writeFileSync(join(data, "Mod.xml"), MOD_XML);
  writeFileSync(join(data, "Units.xml"), UNITS_XML);
  symlinkSync(join(secret, "present.xml"), join(data, "Linked.xml"));
  symlinkSync(join(secret, "absent.xml"), join(data, "LinkedMissing.xml"));
  symlinkSync(secret, join(data, "SharedLink"), "dir");
  return { top, mod, data, secret };
}

/** The project-only configuration of `mod` (a fresh state folder unless `home`). */
function configOf(mod: string, home: string = TMP.make("ra3-h-")) {
  const cfg = resolveConfig({ project: mod, sdk: "", schema: null, home, env: {} });
  if ("envError" in cfg) throw new Error(cfg.envError);
  return cfg;
}

/** A workspace on `mod` after a full build (XML and art, published once). */
async function built(mod: string, home?: string): Promise<Workspace> {
  const ws = new Workspace(configOf(mod, home));
  await ws.build(() => {}, undefined, { publishXmlPhase: false });
  return ws;
}

const H = hostile();
const HOME = TMP.make("ra3-hostile-home-");

async function ra3(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo(H.mod, { RA3_HOME: HOME });
  const code = await run(["--no-progress", "--sdk", "", "--project", H.mod, ...args], io);
  return { code, out: io.stdout, err: io.stderr };
}

/** Pairs of sources naming an existing and a missing outside target (the second with `absent`). */
const PAIRS: readonly [string, string][] = [
  ["../../../../secret/present.xml", "../../../../secret/absent.xml"],
  ["..\\..\\..\\..\\secret\\present.xml", "..\\..\\..\\..\\secret\\absent.xml"],
  ["DATA:../../secret/present.xml", "DATA:../../secret/absent.xml"],
  ["C:/secret/present.xml", "C:/secret/absent.xml"],
  ["SharedLink/present.xml", "SharedLink/absent.xml"],
  ["Linked.xml", "LinkedMissing.xml"],
];

/** `s` with the missing target's name written as the existing one's. */
function asPresent(s: string): string {
  return s.replaceAll("LinkedMissing", "Linked").replaceAll("absent", "present");
}

const REMEDY = " (the project, the SDK, the mod's parent and grandparent folders); copy the file into the mod";

describe("the hostile mod's diagnostics and index", () => {
  test("each include leaving the roots and each link leading out is named, never whether its target exists", async () => {
    const r = await ra3("check", "--json");
    const j = JSON.parse(r.out);
    const lines = j.result.diagnostics.map((d: Json) => `${d.at ?? "-"} ${d.code}: ${d.message}`);
    const inc = (line: number, col: number, what: string, s: string) =>
      `Data/Mod.xml:${line}:${col} include-outside-roots: ${what} "${s}" is not followed: it leads outside the folders ra3 reads${REMEDY}`;
    const link = (p: string) =>
      `- link-outside-roots: ${p} is not followed: it is a link that leads to nothing or outside the folders ra3 reads (the project, the SDK, the mod's parent and grandparent folders); copy the files into the mod`;
    expect(lines).toEqual([
      link("Data/Linked.xml"),
      link("Data/LinkedMissing.xml"),
      link("Data/SharedLink"),
      inc(4, 31, "include", "../../../../secret/present.xml"),
      inc(5, 31, "include", "..\\..\\..\\..\\secret\\absent.xml"),
      inc(6, 31, "include", "DATA:../../secret/present.xml"),
      inc(7, 31, "include", "C:/secret/present.xml"),
      inc(8, 31, "include", "Linked.xml"),
      inc(9, 31, "include", "LinkedMissing.xml"),
      inc(10, 31, "include", "SharedLink/present.xml"),
      inc(11, 31, "include", "SharedLink/absent.xml"),
      inc(15, 3, "xi:include", "../../../../secret/present.xml"),
    ]);
  });

  test("nothing outside the roots is indexed: no outside file, no Secret asset", async () => {
    const ws = await built(H.mod, HOME);
    const cfg = ws.config;
    const linked = ws.linked!;
    ws.close();
    expect([...linked.files.values()].map((f) => f.path.slice(H.mod.length + 1)).sort()).toEqual([
      "Data/Mod.xml",
      "Data/Units.xml",
    ]);
    expect(cfg.confinement.roots).toEqual([H.mod, join(H.top, "a", "b", "mods"), join(H.top, "a", "b")]);
    expect([...linked.files.keys()].every((k) => insideRoots(k, cfg.confinement.roots))).toBe(true);
    expect(linked.assets.map((a) => a.id)).toEqual(["Tank", "Unit"]);
    expect(linked.includes.filter((e) => e.resolution === "outside").map((e) => e.source)).toEqual([
      "../../../../secret/present.xml",
      "..\\..\\..\\..\\secret\\absent.xml",
      "DATA:../../secret/present.xml",
      "C:/secret/present.xml",
      "Linked.xml",
      "LinkedMissing.xml",
      "SharedLink/present.xml",
      "SharedLink/absent.xml",
      "../../../../secret/present.xml",
    ]);
    // The export's closed enumeration: `missing` with `outside: true` (and it validates).
    const exported = parseExport(
      exportSnapshot(linked, ws.core, {
        toolVersion: "9.9.9",
        generatedAt: "2026-01-02T03:04:05.000Z",
        buildId: 1,
        phase: "art",
        complete: true,
        stale: false,
        stats: {},
      }, "json"),
      "json",
    );
    if (!exported.ok) throw new Error(exported.message);
    expect(exported.snapshot.includes.slice(0, 2)).toEqual([
      {
        from: "Data/Mod.xml",
        to: null,
        source: "../../../../secret/present.xml",
        type: "all",
        resolution: "missing",
        outside: true,
        line: 4,
      },
      {
        from: "Data/Mod.xml",
        to: null,
        source: "..\\..\\..\\..\\secret\\absent.xml",
        type: "all",
        resolution: "missing",
        outside: true,
        line: 5,
      },
    ]);
    const find = await ra3("find", "Secret");
    expect([find.code, find.err]).toEqual([1, expect.stringContaining('no asset has the id "Secret"')]);
  });
});

describe("resolve_include (CLI): an existing and a missing outside target answer alike", () => {
  test("the exact answer for ../../../../secret/present.xml", async () => {
    const r = JSON.parse((await ra3("include", "../../../../secret/present.xml", "--json")).out).result;
    expect(r).toEqual({
      resolved: null,
      source: "../../../../secret/present.xml",
      from: "Data/Mod.xml",
      tried: [join(H.secret, "present.xml")],
      outside: true,
      reason: OUTSIDE_REASON,
    });
    const text = (await ra3("include", "../../../../secret/present.xml")).out;
    expect(text).toBe(
      `../../../../secret/present.xml does not resolve: ${OUTSIDE_REASON}\n  from Data/Mod.xml\n  outside (not looked up) ${
        join(H.secret, "present.xml")
      }\n`,
    );
  });

  test("DATA:../../…: the candidates inside the roots are looked up, the others are not", async () => {
    const r = JSON.parse((await ra3("include", "DATA:../../secret/present.xml", "--json")).out).result;
    // Bases: the grandparent TMP/a/b (→ TMP/secret: outside), Data (→ TMP/a/b/mods/secret: inside, a
    // miss), the parent TMP/a/b/mods (→ TMP/a/secret: outside).
    expect([r.tried, r.outside, r.reason]).toEqual([
      [
        join(H.top, "secret", "present.xml"),
        join(H.top, "a", "b", "mods", "secret", "present.xml"),
        join(H.secret, "present.xml"),
      ],
      true,
      OUTSIDE_REASON,
    ]);
  });

  test.each(PAIRS)("%s and %s: byte-identical JSON and text apart from the name", async (present, absent) => {
    const a = await ra3("include", present, "--json");
    const b = await ra3("include", absent, "--json");
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(asPresent(JSON.stringify(JSON.parse(b.out).result))).toBe(JSON.stringify(JSON.parse(a.out).result));
    const at = await ra3("include", present);
    const bt = await ra3("include", absent);
    expect(asPresent(bt.out)).toBe(at.out);
    expect(JSON.parse(a.out).result.outside).toBe(true);
  });
});

describe("the MCP server on the hostile mod", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await connect(H.mod);
    await h.registry.pick(null); // first build
    await h.call("get_status", { consistency: "strict" });
  });
  afterAll(async () => {
    await h.close();
  });
  /** The body text and the structured result (or error) of a call, as one comparable string. */
  const answer = async (name: string, args: Record<string, unknown>) => {
    const r: CallToolResult = await h.call(name, args);
    const sc = r.structuredContent as Json;
    return JSON.stringify({ isError: r.isError ?? false, text: bodyOf(r), result: resultOf(r), error: sc?.error });
  };

  test.each(PAIRS)("resolve_include %s / %s: byte-identical text and JSON apart from the name", async (p, a) => {
    const present = await answer("resolve_include", { source: p });
    expect(asPresent(await answer("resolve_include", { source: a }))).toBe(present);
    expect(JSON.parse(present).result.outside).toBe(true);
  });

  test("is_file_active and check_files: a link outside, existing or dangling; an outside path, existing or not", async () => {
    const linked = await answer("is_file_active", { path: "Data/Linked.xml" });
    expect(asPresent(await answer("is_file_active", { path: "Data/LinkedMissing.xml" }))).toBe(linked);
    expect(JSON.parse(linked).error).toEqual({
      code: "not_found",
      message:
        "Data/Linked.xml is not an indexed file (not XML/.w3x/.str under the project, and no include reaches it)",
    });
    const outside = await answer("is_file_active", { path: join(H.secret, "present.xml") });
    expect(asPresent(await answer("is_file_active", { path: join(H.secret, "absent.xml") }))).toBe(outside);
    expect(JSON.parse(outside).error.code).toBe("outside_project");
    const check = await answer("check_files", { paths: [join(H.secret, "present.xml")] });
    expect(asPresent(await answer("check_files", { paths: [join(H.secret, "absent.xml")] }))).toBe(check);
    const checkLink = await answer("check_files", { paths: ["Data/SharedLink/present.xml"] });
    expect(asPresent(await answer("check_files", { paths: ["Data/SharedLink/absent.xml"] }))).toBe(checkLink);
  });

  test("list_files and find_asset see only the mod's own files and assets", async () => {
    const files = JSON.parse(await answer("list_files", {})).result.items.map((i: Json) => i.file);
    expect(files).toEqual(["Data/Mod.xml", "Data/Units.xml"]);
    expect(JSON.parse(await answer("find_asset", { id: "Secret" })).error.code).toBe("not_found");
  });

  test("resources: reading an outside target is refused the same way whether it exists", async () => {
    const read = (uri: string) =>
      h.client.readResource({ uri }).then(
        (r) => JSON.stringify(r),
        (e: Json) => JSON.stringify({ code: e.code, message: e.message, data: e.data }),
      );
    const enc = (p: string) => p.split("/").map(encodeURIComponent).join("/");
    for (
      const [p, a] of [
        [`ra3://file/${enc(join(H.secret, "present.xml"))}`, `ra3://file/${enc(join(H.secret, "absent.xml"))}`],
        ["ra3://file/Data/Linked.xml", "ra3://file/Data/LinkedMissing.xml"],
        ["ra3://file/Data/SharedLink/present.xml", "ra3://file/Data/SharedLink/absent.xml"],
      ]
    ) {
      const present = await read(p);
      expect(asPresent(await read(a))).toBe(present);
      expect(JSON.parse(present).code).toBe(-32602);
    }
    expect(JSON.parse(await read(`ra3://file/${enc(join(H.secret, "present.xml"))}`)).message).toBe(
      `${join(H.secret, "present.xml")} is outside the folders ra3 reads (${
        [H.mod, join(H.top, "a", "b", "mods"), join(H.top, "a", "b")].join(", ")
      }); pass a path inside the project`,
    );
    expect(JSON.parse(await read("ra3://asset/GameObject/Secret")).code).toBe(-32602);
  });

  test("completions offer no outside name", async () => {
    const complete = async (value: string) =>
      (await h.client.complete({
        ref: { type: "ref/resource", uri: "ra3://file/{+path}" },
        argument: { name: "path", value },
      })).completion.values;
    expect(await complete("")).toEqual(["Data/Mod.xml", "Data/Units.xml"]);
    expect([await complete("Data/L"), await complete("Data/S"), await complete("../")]).toEqual([[], [], []]);
    const ids = await h.client.complete({
      ref: { type: "ref/resource", uri: "ra3://asset/{type}/{id}" },
      argument: { name: "id", value: "" },
    });
    expect(ids.completion.values).toEqual(["Tank", "Unit"]);
  });
});

describe("a file replaced by a link after it was indexed", () => {
  test("its text is not read, with one reason whether the link's target exists; a refresh drops it", async () => {
    const m = hostile();
    const ws = await built(m.mod);
    const units = join(m.data, "Units.xml");
    const roots = { projectDir: m.mod, sdkDir: null };
    expect(readSourceText(units, roots)).toEqual({ text: UNITS_XML });
    const reason = { error: `could not read ${units}: it no longer exists, or it leads outside the folders ra3 reads` };
    rmSync(units);
    symlinkSync(join(m.secret, "present.xml"), units);
    expect(readSourceText(units, roots)).toEqual(reason);
    rmSync(units);
    symlinkSync(join(m.secret, "absent.xml"), units);
    expect(readSourceText(units, roots)).toEqual(reason);
    rmSync(units);
    expect(readSourceText(units, roots)).toEqual(reason);
    // The watcher names the file: it is gone from the index (now a link to an existing outside file).
    symlinkSync(join(m.secret, "present.xml"), units);
    const report = await ws.refresh([units]);
    ws.close();
    expect([report.changed, report.deleted]).toEqual([[], [units]]);
    expect(ws.linked!.assets.map((a) => a.id)).toEqual(["Tank"]);
  });
});

describe("a warm start from a snapshot that holds an outside file (written by an older ra3)", () => {
  test("the refresh forgets it", async () => {
    const m = hostile();
    const ws = new Workspace(configOf(m.mod));
    const outside = join(m.secret, "present.xml");
    const inside = join(m.data, "Units.xml");
    // What installRecords gets from such a snapshot: the outside record with its current stamp.
    ws.installRecords([
      { path: outside, stamp: statStamp(outside), record: emptyRecord("xml") },
      { path: inside, stamp: statStamp(inside), record: emptyRecord("xml") },
    ]);
    const report = await ws.refresh();
    ws.close();
    expect(report.deleted).toEqual([outside]);
    expect([...ws.linked!.files.keys()].some((k) => k.includes("secret"))).toBe(false);
  });
});

/**
 * The paths that `fn` stat'ed (following links), opened or read among the outside folder, the mod's links
 * leading out and `alsoLinks`: none may be (an `lstat` or the confinement's real-path check is fine).
 */
async function outsideTouches(
  m: { data: string; secret: string },
  fn: () => Promise<unknown>,
  alsoLinks: readonly string[] = [],
): Promise<string[]> {
  const spies = [spyOn(fs, "statSync"), spyOn(fs, "readFileSync"), spyOn(fs, "openSync")];
  const links = [...["Linked.xml", "LinkedMissing.xml", "SharedLink"].map((n) => join(m.data, n)), ...alsoLinks];
  let calls: unknown[][];
  try {
    await fn();
  } finally {
    calls = spies.flatMap((s) => [...s.mock.calls]);
    for (const s of spies) s.mockRestore();
  }
  return calls.map(([p]) => String(p)).filter((p) =>
    [m.secret, ...links].some((o) => p === o || p.startsWith(o + "/"))
  );
}

describe("issue 16's read paths under the confinement", () => {
  test("a build (its scan primes the lister's listings) never stats or reads through a link leading out", async () => {
    const m = hostile();
    let ws: Workspace | undefined;
    expect(await outsideTouches(m, async () => (ws = await built(m.mod)))).toEqual([]);
    ws!.close();
    expect(ws!.linked!.assets.map((a) => a.id)).toEqual(["Tank", "Unit"]);
  });

  test("strict with a trusted watcher (refreshKnown): a known file replaced by a link leading out is forgotten, its target not read", async () => {
    const m = hostile();
    const ws = await built(m.mod);
    const units = join(m.data, "Units.xml");
    rmSync(units);
    symlinkSync(join(m.secret, "present.xml"), units);
    let report: Awaited<ReturnType<Workspace["refreshKnown"]>> | undefined;
    const touches = await outsideTouches(m, async () => (report = await ws.refreshKnown([])), [units]);
    ws.close();
    expect([touches, report!.changed, report!.deleted]).toEqual([[], [], [units]]);
    expect(ws.linked!.assets.map((a) => a.id)).toEqual(["Tank"]);
  });

  test("a warm start from a saved snapshot holding outside records: not stat'ed, not served, forgotten", async () => {
    const m = hostile();
    const home = TMP.make("ra3-h-");
    // An older ra3 indexed the outside file and the mod's link to it: its snapshot holds both records.
    const old = await built(m.mod, home);
    const outside = join(m.secret, "present.xml");
    const linked = join(m.data, "Linked.xml");
    const bytes = fs.readFileSync(outside);
    old.core.applyChanges([
      { path: outside, bytes, stamp: statStamp(outside)! },
      { path: linked, bytes, stamp: statStamp(outside)! },
    ]);
    expect(saveSnapshot(old, new SnapshotStore(home, m.mod), schemaKeyOf(old.schema)).saved).toBe(true);
    old.close();
    // An edit, so a server serves the stored index before re-reading.
    writeFileSync(join(m.data, "Units.xml"), UNITS_XML.replace('"Unit"', '"Unit2"'));

    for (const serve of [true, false]) {
      const ws = new Workspace(configOf(m.mod, home));
      ws.event("build_started");
      let atServe: string[] | null = null;
      let warm: Awaited<ReturnType<typeof warmStart>> | undefined;
      const touches = await outsideTouches(m, async () => {
        warm = await warmStart(
          ws,
          new SnapshotStore(home, m.mod),
          schemaKeyOf(ws.schema),
          serve ? () => (atServe = ws.linked!.assets.map((a) => a.id)) : undefined,
        );
      });
      ws.close();
      if (!warm!.warm) throw new Error(warm!.reason);
      expect([serve, touches, atServe]).toEqual([serve, [], serve ? ["Tank", "Unit"] : null]);
      expect([...ws.linked!.files.keys()].some((k) => k.includes("secret") || k.toLowerCase().endsWith("/linked.xml")))
        .toBe(false);
      expect(ws.linked!.assets.map((a) => a.id)).toEqual(["Tank", "Unit2"]);
    }

    // `ra3 status` links the stored records read-only: the outside ones are listed as gone, not linked.
    const ws = new Workspace(configOf(m.mod, home));
    const scanned = scanProjectFiles(m.mod, { admitLink: (p) => ws.ports.confinement.admits(p) });
    let inspection: ReturnType<typeof inspectSnapshot> | undefined;
    const touches = await outsideTouches(m, async () => {
      inspection = inspectSnapshot(ws, new SnapshotStore(home, m.mod), schemaKeyOf(ws.schema), scanned);
    });
    ws.close();
    expect([touches, [...inspection!.deleted].sort()]).toEqual([[], [linked, outside].sort()]);
    expect(ws.linked!.assets.some((a) => a.id === "Secret")).toBe(false);
  });
});

describe("what the project layout and the build scripts name", () => {
  test("a Data/Mod.xml that links outside is an entry point nothing reads", async () => {
    const top = realpathSync(TMP.make("ra3-hostile-entry-"));
    const mod = join(top, "x", "y", "Mod");
    mkdirSync(join(mod, "Data"), { recursive: true });
    mkdirSync(join(top, "secret"));
    writeFileSync(join(top, "secret", "Mod.xml"), SECRET_XML);
    writeFileSync(join(mod, "Data", "Units.xml"), UNITS_XML);
    symlinkSync(join(top, "secret", "Mod.xml"), join(mod, "Data", "Mod.xml"));
    const ws = await built(mod);
    ws.close();
    const linked = ws.linked!;
    expect(linked.assets.map((a) => a.id)).toEqual(["Unit"]);
    expect(linked.diagnostics.map((d) => d.code)).toEqual(["link-outside-roots"]);
    expect(linked.file(join(mod, "Data", "Mod.xml"))?.kind).toBe("missing");
  });

  test("build scripts are read from the roots only; one linked from outside is skipped, its target not stat'ed", async () => {
    // top/s/Mods/X with BuildMod.bat in its grandparent top/s (a root) naming Data/Static.xml, and a
    // second script there that links outside naming Data/Other.xml.
    const top = realpathSync(TMP.make("ra3-hostile-scripts-"));
    const mod = join(top, "s", "Mods", "X");
    mkdirSync(join(mod, "Data"), { recursive: true });
    mkdirSync(join(top, "elsewhere"));
    for (const f of ["Mod.xml", "Static.xml", "Other.xml"]) writeFileSync(join(mod, "Data", f), UNITS_XML);
    writeFileSync(join(top, "s", "BuildMod.bat"), "BinaryAssetBuilder.exe Mods\\%1\\Data\\Static.xml\r\n");
    writeFileSync(join(top, "elsewhere", "Evil.bat"), "BinaryAssetBuilder.exe Mods\\%1\\Data\\Other.xml\r\n");
    symlinkSync(join(top, "elsewhere", "Evil.bat"), join(top, "s", "Evil.bat"));
    let cfg: ReturnType<typeof configOf> | undefined;
    const touches = await outsideTouches(
      { data: join(mod, "Data"), secret: join(top, "elsewhere") },
      async () => (cfg = configOf(mod)),
      [join(top, "s", "Evil.bat")],
    );
    expect([touches, cfg!.buildScripts.map((b) => [b.path, b.entries.map((e) => e.inMod)])]).toEqual([[], [
      [join(top, "s", "BuildMod.bat"), ["Data/Static.xml"]],
    ]]);
  });
});
