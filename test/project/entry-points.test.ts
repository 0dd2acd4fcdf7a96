/**
 * Entry points from the build definition: the XML paths build scripts name, the planning rule (explicit
 * `--entry`, build scripts, well-known names, map metadata, `.babproj` streams), the warnings when two
 * plausible entries disagree, and the same through the real driver and the CLI (`ra3 status`,
 * `--entry`) on temporary folders.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { entriesNamedByScript } from "../../src/project/build-scripts.ts";
import { planEntries } from "../../src/project/entry-points.ts";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { resolveConfig } from "../../src/workspace/config.ts";
import { listFiles } from "../../src/query/file-list.ts";
import { doc, includes, memIndex, ROOT } from "../index/fixture.ts";
import { ok } from "../query/sample.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

/** A Kane's Wrath SDK-style BuildMod.bat (run from the SDK root as `BuildMod.bat <mod>`). */
const BUILD_MOD_BAT = [
  "@echo off",
  "rem Builds Mods\\%1\\Data\\Mod.xml? No: KW mods start at Static.xml",
  "set MOD=%1",
  ":: static data",
  'tools\\binaryassetbuilder.exe "%cd%\\Mods\\%MOD%\\Data\\Static.xml" /od:"%cd%\\BuiltMods" /iod:"%cd%\\BuiltMods" /ls:true /gui:false /UsePrecompiled:true /vf:true',
  'tools\\binaryassetbuilder.exe "%cd%\\Mods\\%MOD%\\Data\\AdditionalMaps\\MapMetaData_Global.xml" /od:"%cd%\\BuiltMods"',
  'tools\\binaryassetbuilder.exe "%cd%\\Mods\\OtherMod\\Data\\Mod.xml" /od:"%cd%\\BuiltMods"',
].join("\r\n");

/** A DefaultScript.cs-style C# build script (paths in escaped string literals). */
const DEFAULT_SCRIPT_CS = [
  "// Builds the mod's static data",
  'string modXml = "Mods\\\\" + modName + "\\\\data\\\\mod.xml";',
  'Run("tools\\\\binaryassetbuilder.exe", "\\"" + sdk + "\\\\Mods\\\\" + modName + "\\\\data\\\\mod.xml\\"");',
  '// string old = "Mods\\\\X\\\\data\\\\old.xml";',
].join("\n");

describe("entriesNamedByScript: the mod's XML files a build script names", () => {
  test("a Kane's Wrath-style BuildMod.bat: Static.xml and the map metadata; other mods and comments ignored", () => {
    expect(entriesNamedByScript(BUILD_MOD_BAT, "MyMod", false)).toEqual([
      { line: 5, written: "%cd%\\Mods\\%MOD%\\Data\\Static.xml", inMod: "Data/Static.xml" },
      {
        line: 6,
        written: "%cd%\\Mods\\%MOD%\\Data\\AdditionalMaps\\MapMetaData_Global.xml",
        inMod: "Data/AdditionalMaps/MapMetaData_Global.xml",
      },
    ]);
    // The mod's own name written out counts like a variable.
    expect(entriesNamedByScript('bab "C:\\SDK\\Mods\\OtherMod\\Data\\Mod.xml"', "othermod", false)).toEqual([
      { line: 1, written: "C:\\SDK\\Mods\\OtherMod\\Data\\Mod.xml", inMod: "Data/Mod.xml" },
    ]);
  });

  test("a DefaultScript.cs-style script: string concatenation with the mod name", () => {
    expect(entriesNamedByScript(DEFAULT_SCRIPT_CS, "MyMod", false).map((e) => [e.line, e.inMod])).toEqual([
      [2, "data/mod.xml"],
      [3, "data/mod.xml"],
    ]);
  });

  test("a script inside the mod may name data\\… relative to it; outside the mod it may not", () => {
    expect(entriesNamedByScript("bab data\\static.xml /od:out", "M", true)).toEqual([
      { line: 1, written: "data\\static.xml", inMod: "data/static.xml" },
    ]);
    expect(entriesNamedByScript("bab data\\static.xml /od:out", "M", false)).toEqual([]);
    expect(entriesNamedByScript("copy SageXml\\static.xml x", "M", true)).toEqual([]);
  });
});

describe("planEntries", () => {
  const base = {
    projectDir: "/m/X",
    explicit: [],
    scripted: [],
    babproj: [],
    modXml: null,
    staticXml: null,
    mapMetadata: [],
  };

  test("a build script names Data/Static.xml: it is the static entry, and Data/Mod.xml a warning", () => {
    const plan = planEntries({
      ...base,
      scripted: [{ script: "/sdk/BuildMod.bat", line: 5, file: "/m/X/Data/Static.xml" }],
      modXml: "/m/X/Data/Mod.xml",
      staticXml: "/m/X/Data/Static.xml",
      mapMetadata: ["/m/X/Data/AdditionalMaps/MapMetaData_Global.xml"],
    });
    expect(plan.entries).toEqual([
      { stream: "static", file: "/m/X/Data/Static.xml", origin: "build-script", reason: "named by BuildMod.bat:5" },
      {
        stream: "global:MapMetaData_Global",
        file: "/m/X/Data/AdditionalMaps/MapMetaData_Global.xml",
        origin: "map-metadata",
        reason: "a map-metadata file: built as a global stream",
      },
    ]);
    expect(plan.notes).toEqual([{
      code: "entry-conflict",
      severity: "warning",
      message:
        "Data/Mod.xml looks like an entry point, but the build script BuildMod.bat builds Data/Static.xml: Data/Mod.xml is treated as not included",
      file: "/m/X/Data/Mod.xml",
    }]);
  });

  test("no script, both well-known names: both are entries, with a warning (never one silently)", () => {
    const plan = planEntries({ ...base, modXml: "/m/X/Data/Mod.xml", staticXml: "/m/X/Data/Static.xml" });
    expect(plan.entries.map((e) => `${e.stream} ${e.file}`)).toEqual([
      "static /m/X/Data/Mod.xml",
      "static:Static /m/X/Data/Static.xml",
    ]);
    expect(plan.notes.map((n) => n.message)).toEqual([
      "two plausible entry points disagree: Data/Mod.xml (Data/Mod.xml: the static stream EA's DefaultScript.cs builds) and Data/Static.xml (Data/Static.xml: the static stream of a Kane's Wrath-style build (BuildMod.bat)); both are indexed as compiled",
    ]);
  });

  test("--entry: those files and only those; one that names no file is an error", () => {
    const plan = planEntries({
      ...base,
      explicit: [{ written: "Data/Other.xml", file: "/m/X/Data/Other.xml" }, { written: "Nope.xml", file: null }],
      modXml: "/m/X/Data/Mod.xml",
      mapMetadata: ["/m/X/Data/AdditionalMaps/MapMetaData_Global.xml"],
    });
    expect(plan.entries).toEqual([
      { stream: "entry:Other", file: "/m/X/Data/Other.xml", origin: "explicit", reason: "given with --entry" },
    ]);
    expect(plan.notes).toEqual([{
      code: "entry-not-found",
      severity: "error",
      message: "--entry Nope.xml names no file of the project; it is ignored",
      file: null,
    }]);
  });

  test("a file named by several sources is one entry with every reason", () => {
    const plan = planEntries({
      ...base,
      modXml: "/m/X/Data/Mod.xml",
      babproj: [{ babproj: "/m/X/mod.babproj", file: "/m/X/Data/Mod.xml" }, {
        babproj: "/m/X/mod.babproj",
        file: "/m/X/Data/AptUI/Page.xml",
      }],
    });
    expect(plan.entries.map((e) => `${e.stream}: ${e.reason}`)).toEqual([
      "static: Data/Mod.xml: the static stream EA's DefaultScript.cs builds; a <Stream> of mod.babproj",
      "babproj:Page: a <Stream> of mod.babproj",
    ]);
    expect(plan.notes).toEqual([]);
  });
});

describe("the plan in the index: states follow the entry points", () => {
  const files = {
    "Data/Mod.xml": doc(includes(["all", "Old.xml"])),
    "Data/Old.xml": doc(`<GameObject id="OldTank" />`),
    "Data/Static.xml": doc(includes(["all", "New.xml"])),
    "Data/New.xml": doc(`<GameObject id="NewTank" />`),
  };

  test("a build script that names Data/Static.xml", () => {
    const f = memIndex(files, null, {
      buildScripts: [{ path: "/sdk/BuildMod.bat", entries: entriesNamedByScript(BUILD_MOD_BAT, "Test Mod", false) }],
    });
    expect(ok(listFiles(f.linked)).items.map((i) => `${i.file} ${i.state}`)).toEqual([
      "Data/Mod.xml not-included",
      "Data/New.xml compiled",
      "Data/Old.xml not-included",
      "Data/Static.xml compiled",
    ]);
    expect(f.linked.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(["warning entry-conflict"]);
  });

  test("two competing entries and no script: both compiled, one warning", () => {
    const f = memIndex(files);
    expect(ok(listFiles(f.linked, { state: "compiled" })).total).toBe(4);
    expect(f.linked.streams.map((s) => `${s.name} ${s.origin}`)).toEqual([
      "static well-known",
      "static:Static well-known",
    ]);
    expect(f.linked.diagnostics.map((d) => d.code)).toEqual(["entry-conflict"]);
  });

  test("--entry picks one", () => {
    const f = memIndex(files, null, { entries: ["data\\static.xml"] });
    expect(ok(listFiles(f.linked, { state: "compiled" })).items.map((i) => i.file)).toEqual([
      "Data/New.xml",
      "Data/Static.xml",
    ]);
    expect(f.linked.streams.map((s) => `${s.name} ${s.entry.slice(ROOT.length + 1)} ${s.reason}`)).toEqual([
      "static Data/Static.xml given with --entry",
    ]);
    expect(f.linked.diagnostics).toEqual([]);
  });
});

describe("through the driver and the CLI, on disk", () => {
  /** An SDK-like folder holding BuildMod.bat and Mods/MyMod with both Mod.xml and Static.xml. */
  function sdkWithMod(): { sdk: string; mod: string } {
    const sdk = TMP.make("ra3-entries-");
    const mod = join(sdk, "Mods", "MyMod");
    mkdirSync(join(mod, "Data"), { recursive: true });
    writeFileSync(join(sdk, "BuildMod.bat"), BUILD_MOD_BAT);
    writeFileSync(join(mod, "Data", "Mod.xml"), doc(includes(["all", "Old.xml"])));
    writeFileSync(join(mod, "Data", "Old.xml"), doc(`<GameObject id="OldTank" />`));
    writeFileSync(join(mod, "Data", "Static.xml"), doc(`<GameObject id="NewTank" />`));
    return { sdk, mod };
  }

  test("resolveConfig reads the BuildMod.bat two folders up (never runs it)", () => {
    const { sdk, mod } = sdkWithMod();
    const cfg = resolveConfig({ project: mod, sdk: "", schema: null, home: TMP.make("ra3-h-"), env: {} });
    if ("envError" in cfg) throw new Error(cfg.envError);
    // Every path it names into a mod folder; which of them exist is the planner's business.
    expect(cfg.buildScripts.map((s) => [s.path, s.entries.map((e) => e.inMod)])).toEqual([
      [join(sdk, "BuildMod.bat"), ["Data/Static.xml", "Data/AdditionalMaps/MapMetaData_Global.xml"]],
    ]);
  });

  test("ra3 status names the entry and why, and warns; --entry overrides", async () => {
    const { mod } = sdkWithMod();
    const home = TMP.make("ra3-h-");
    const status = async (...extra: string[]) => {
      const io = memoryIo(mod, {});
      const code = await run(["status", "--json", "--no-progress", "--sdk", "", "--home", home, ...extra], io);
      return { code, r: JSON.parse(io.stdout).result };
    };
    await run(["index", "--no-progress", "--quiet", "--sdk", "", "--home", home], memoryIo(mod, {}));
    const detected = await status();
    expect(
      detected.r.streams.map((s: { name: string; entry: string; reason: string }) =>
        `${s.name} ${s.entry} ${s.reason}`
      ),
    )
      .toEqual(["static Data/Static.xml named by BuildMod.bat:5"]);
    expect(detected.r.entryNotes).toEqual([
      "Data/Mod.xml looks like an entry point, but the build script BuildMod.bat builds Data/Static.xml: Data/Mod.xml is treated as not included; pass --entry FILE to choose",
    ]);
    const io = memoryIo(mod, {});
    await run([
      "file",
      "Data/Old.xml",
      "--json",
      "--no-progress",
      "--sdk",
      "",
      "--home",
      home,
      "--entry",
      "Data/Mod.xml",
    ], io);
    // Compiled (the usual state, left out of the answer) from the --entry given.
    const old = JSON.parse(io.stdout).result;
    expect([old.state, old.chain.entry, old.chain.reason]).toEqual([undefined, "Data/Mod.xml", "given with --entry"]);
    const usage = memoryIo(mod, {});
    expect(await run(["status", "--entry", ""], usage)).toBe(2);
    expect(usage.stderr).toBe("ra3: --entry needs a file\n");
  });
});
