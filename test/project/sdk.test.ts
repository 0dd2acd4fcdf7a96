import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { NodeDirectoryLister } from "../../src/project/fs-port.ts";
import { MemoryDirectoryLister } from "./memory-lister.ts";
import {
  detectGameFromAssetNames,
  detectGameFromLayout,
  normalizeSdkPath,
  parseRegQueryOutput,
  type RegistryQuery,
  resolveSdk,
  SDK_REGISTRY_KEYS,
  validateSdk,
} from "../../src/project/sdk.ts";
import { removeDir, tempDir, writeTree } from "./tree.ts";

const RA3_FILES = [
  "/sdk/Schemas/xsd/CnC3Types.xsd",
  "/sdk/SageXml/Static.xml",
  "/sdk/builtmods/sagexml/static.manifest",
  "/sdk/Mods/Readme.txt",
  "/sdk/static.xml",
  "/sdk/Global.xml",
  "/sdk/audio.xml",
  "/sdk/Art/AU/x.w3x",
  "/sdk/Audio/a.xml",
];

const TW_FILES = [
  "/tw/Schemas/xsd/CnC3Types.xsd",
  "/tw/CnC3Xml/Static.xml",
  "/tw/CnC3Xml/global.xml",
  "/tw/BuiltMods/CnC3Xml/static.manifest",
  "/tw/Mods/Commander/data/Mod.xml",
];

describe("normalizeSdkPath", () => {
  test("trims whitespace and one pair of matching quotes", () => {
    expect(normalizeSdkPath('  "C:\\Apps\\RA3 SDK"  ')).toBe("C:\\Apps\\RA3 SDK");
    expect(normalizeSdkPath("'/opt/sdk'")).toBe("/opt/sdk");
    expect(normalizeSdkPath('""/opt/sdk""')).toBe('"/opt/sdk"');
    expect(normalizeSdkPath('"/opt/sdk')).toBe('"/opt/sdk');
    expect(normalizeSdkPath('" /opt/sdk "')).toBe("/opt/sdk");
    expect(normalizeSdkPath("   ")).toBe("");
  });
});

describe("validateSdk", () => {
  test("missing: empty input", () => {
    expect(validateSdk('  ""  ', new MemoryDirectoryLister())).toEqual({
      dir: "",
      status: "missing",
      missing: [],
      schemaDir: null,
      schemaFile: null,
      vanillaDir: null,
      builtmodsDirs: [],
      manifestDirs: [],
      modsDir: null,
      artDir: null,
      audioDir: null,
      placeholders: [],
      game: null,
    });
  });

  test("missing: not a directory (absent, or a file)", () => {
    const l = new MemoryDirectoryLister(["/files/sdk.txt"]);
    expect(validateSdk("/nowhere/sdk", l).status).toBe("missing");
    expect(validateSdk("/nowhere/sdk", l).dir).toBe("/nowhere/sdk");
    expect(validateSdk("/files/sdk.txt", l).status).toBe("missing");
  });

  test("not-sdk: a folder without the schema marker", () => {
    const l = new MemoryDirectoryLister(["/notsdk/SageXml/a.xml", "/notsdk/Mods/x.txt"]);
    const info = validateSdk("/notsdk", l);
    expect(info.status).toBe("not-sdk");
    expect(info.missing).toEqual(["Schemas/xsd/CnC3Types.xsd", "builtmods/", "static.xml", "global.xml", "audio.xml"]);
    expect(info.vanillaDir).toBe("/notsdk/SageXml");
  });

  test("partial: the marker with some RA3 items missing", () => {
    const l = new MemoryDirectoryLister(["/p/schemas/XSD/cnc3types.xsd", "/p/SageXml/a.xml", "/p/static.xml"]);
    const info = validateSdk("/p", l);
    expect(info.status).toBe("partial");
    expect(info.missing).toEqual(["builtmods/", "Mods/", "global.xml", "audio.xml"]);
    expect(info.schemaFile).toBe("/p/schemas/XSD/cnc3types.xsd");
    expect(info.schemaDir).toBe("/p/schemas/XSD");
    expect(info.game).toBe("ra3");
  });

  test("partial: the marker alone (game unknown ⇒ RA3 checklist)", () => {
    const info = validateSdk("/m", new MemoryDirectoryLister(["/m/Schemas/xsd/CnC3Types.xsd"]));
    expect(info.status).toBe("partial");
    expect(info.game).toBeNull();
    expect(info.missing).toEqual(["builtmods/", "SageXml/", "Mods/", "static.xml", "global.xml", "audio.xml"]);
  });

  test("ok: a full RA3 layout, with real casing for everything", () => {
    expect(validateSdk("/sdk", new MemoryDirectoryLister(RA3_FILES))).toEqual({
      dir: "/sdk",
      status: "ok",
      missing: [],
      schemaDir: "/sdk/Schemas/xsd",
      schemaFile: "/sdk/Schemas/xsd/CnC3Types.xsd",
      vanillaDir: "/sdk/SageXml",
      builtmodsDirs: ["/sdk/builtmods"],
      manifestDirs: ["/sdk/builtmods", "/sdk/builtmods/sagexml"],
      modsDir: "/sdk/Mods",
      artDir: "/sdk/Art",
      audioDir: "/sdk/Audio",
      placeholders: ["/sdk/static.xml", "/sdk/Global.xml", "/sdk/audio.xml"],
      game: "ra3",
    });
  });

  test("ok: a TW layout (CnC3Xml, BuiltMods, no root placeholders)", () => {
    expect(validateSdk("/tw", new MemoryDirectoryLister(TW_FILES))).toEqual({
      dir: "/tw",
      status: "ok",
      missing: [],
      schemaDir: "/tw/Schemas/xsd",
      schemaFile: "/tw/Schemas/xsd/CnC3Types.xsd",
      vanillaDir: "/tw/CnC3Xml",
      builtmodsDirs: ["/tw/BuiltMods"],
      manifestDirs: ["/tw/BuiltMods", "/tw/BuiltMods/CnC3Xml"],
      modsDir: "/tw/Mods",
      artDir: null,
      audioDir: null,
      placeholders: [],
      game: "tw",
    });
  });

  test("partial: a TW layout without BuiltMods and Mods", () => {
    const info = validateSdk(
      "/tw2",
      new MemoryDirectoryLister(["/tw2/Schemas/xsd/CnC3Types.xsd", "/tw2/CnC3Xml/Static.xml"]),
    );
    expect(info.status).toBe("partial");
    expect(info.missing).toEqual(["BuiltMods/", "Mods/"]);
  });

  test("builtmods and builtmods-quantum are both manifest folders", () => {
    const l = new MemoryDirectoryLister([...RA3_FILES, "/sdk/builtmods-quantum/static.manifest"]);
    const info = validateSdk("/sdk", l);
    expect(info.builtmodsDirs).toEqual(["/sdk/builtmods", "/sdk/builtmods-quantum"]);
    expect(info.manifestDirs).toEqual(["/sdk/builtmods", "/sdk/builtmods/sagexml", "/sdk/builtmods-quantum"]);
  });

  test("a quoted path in the wrong case resolves to the real folder", () => {
    const info = validateSdk(' "/SDK" ', new MemoryDirectoryLister(RA3_FILES));
    expect(info.dir).toBe("/sdk");
    expect(info.status).toBe("ok");
  });

  test("a relative path is made absolute against cwd", () => {
    const info = validateSdk("sdk", new MemoryDirectoryLister(RA3_FILES), "/");
    expect(info.dir).toBe("/sdk");
  });

  describe("on a real file system", () => {
    const root = tempDir();
    afterAll(() => removeDir(root));
    writeTree(root, {
      "RA3 SDK/schemas/xsd/CnC3Types.xsd": "<xs:schema/>",
      "RA3 SDK/SageXml/Static.xml": "",
      "RA3 SDK/builtmods/": "",
      "RA3 SDK/Mods/": "",
      "RA3 SDK/STATIC.XML": "",
      "RA3 SDK/global.xml": "",
    });
    test("a path with spaces and quotes; partial with audio.xml missing", () => {
      const info = validateSdk(`"${join(root, "RA3 SDK")}"`, new NodeDirectoryLister());
      expect(info.status).toBe("partial");
      expect(info.missing).toEqual(["audio.xml"]);
      expect(info.placeholders).toEqual([join(root, "RA3 SDK/STATIC.XML"), join(root, "RA3 SDK/global.xml")]);
      expect(info.schemaFile).toBe(join(root, "RA3 SDK/schemas/xsd/CnC3Types.xsd"));
    });
  });
});

describe("detectGameFromLayout", () => {
  test("SageXml ⇒ ra3, CnC3Xml ⇒ tw, CnC3Xml + KW tools folder ⇒ kw, builtmods sub-folder, else null", () => {
    expect(detectGameFromLayout("/sdk", new MemoryDirectoryLister(RA3_FILES))).toBe("ra3");
    expect(detectGameFromLayout("/tw", new MemoryDirectoryLister(TW_FILES))).toBe("tw");
    const kw = new MemoryDirectoryLister(["/kw/CnC3Xml/a.xml", "/kw/Tools/Games/Kane's Wrath/x.dll"]);
    expect(detectGameFromLayout("/kw", kw)).toBe("kw");
    expect(detectGameFromLayout("/b", new MemoryDirectoryLister(["/b/BuiltMods/SageXml/static.manifest"]))).toBe("ra3");
    expect(detectGameFromLayout("/c", new MemoryDirectoryLister(["/c/builtmods/cnc3xml/static.manifest"]))).toBe("tw");
    expect(detectGameFromLayout("/n", new MemoryDirectoryLister(["/n/x.txt"]))).toBeNull();
  });
});

describe("detectGameFromAssetNames", () => {
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `Kind${i}`);
  test("an RA3-only kind ⇒ ra3", () => {
    expect(detectGameFromAssetNames(["GameObject", "PlayerTech"])).toBe("ra3");
    expect(detectGameFromAssetNames(["UnitAbilityButtonTemplate"])).toBe("ra3");
  });
  test("a C&C3-family kind ⇒ tw below 134 kinds, kw from 134", () => {
    expect(detectGameFromAssetNames(["UnitAbilityButtonTemplateStore", ...filler(126)])).toBe("tw");
    expect(detectGameFromAssetNames(["TheaterOfWarTemplate", ...filler(138)])).toBe("kw");
    expect(detectGameFromAssetNames(["TheaterOfWarTemplate", ...filler(132)])).toBe("tw");
    expect(detectGameFromAssetNames(["TheaterOfWarTemplate", ...filler(133)])).toBe("kw");
  });
  test("structural names do not count", () => {
    expect(detectGameFromAssetNames(["Tags", "Includes", "Defines", "TheaterOfWarTemplate", ...filler(132)])).toBe(
      "tw",
    );
  });
  test("without marker kinds the count decides; small lists are unknown", () => {
    expect(detectGameFromAssetNames(filler(292))).toBe("ra3");
    expect(detectGameFromAssetNames(filler(139))).toBe("kw");
    expect(detectGameFromAssetNames(filler(128))).toBe("tw");
    expect(detectGameFromAssetNames(filler(12))).toBeNull();
    expect(detectGameFromAssetNames([])).toBeNull();
  });
});

describe("parseRegQueryOutput", () => {
  test("reads a REG_SZ value with spaces (CRLF output)", () => {
    const out =
      "\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Wow6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\{F6A3F605-7B10-4939-8D3D-4594332C1649}\r\n" +
      "    InstallLocation    REG_SZ    C:\\Program Files (x86)\\Electronic Arts\\Red Alert 3 Mod SDK\\\r\n\r\n";
    expect(parseRegQueryOutput(out, "InstallLocation")).toBe(
      "C:\\Program Files (x86)\\Electronic Arts\\Red Alert 3 Mod SDK\\",
    );
  });
  test("value names match ignoring case; other values are skipped; REG_EXPAND_SZ works", () => {
    const out =
      "\nHKEY_LOCAL_MACHINE\\X\n    DisplayName    REG_SZ    RA3 SDK\n    installlocation    REG_EXPAND_SZ    D:\\SDK\n";
    expect(parseRegQueryOutput(out, "InstallLocation")).toBe("D:\\SDK");
    expect(parseRegQueryOutput(out, "DisplayName")).toBe("RA3 SDK");
  });
  test("absent or empty value ⇒ null", () => {
    expect(parseRegQueryOutput("\nHKEY_LOCAL_MACHINE\\X\n    DisplayName    REG_SZ    RA3\n", "InstallLocation"))
      .toBeNull();
    expect(parseRegQueryOutput("\nHKEY_LOCAL_MACHINE\\X\n    InstallLocation    REG_SZ    \n", "InstallLocation"))
      .toBeNull();
    expect(parseRegQueryOutput("\nHKEY_LOCAL_MACHINE\\X\n    InstallLocation    REG_SZ\n", "InstallLocation"))
      .toBeNull();
    expect(
      parseRegQueryOutput(
        "ERROR: The system was unable to find the specified registry key or value.",
        "InstallLocation",
      ),
    ).toBeNull();
    expect(parseRegQueryOutput("", "InstallLocation")).toBeNull();
  });
});

describe("resolveSdk", () => {
  const l = new MemoryDirectoryLister([...RA3_FILES, ...TW_FILES, "/plain/x.txt", "/reg/Schemas/xsd/CnC3Types.xsd"]);
  const regOut = (path: string) => `\r\nHKEY_LOCAL_MACHINE\\...\r\n    InstallLocation    REG_SZ    ${path}\r\n`;
  const noRegistry = { queryRegistry: null };

  test("--sdk wins", () => {
    const res = resolveSdk({ flag: "/sdk", env: { RA3_SDK: "/tw" }, lister: l, detectors: noRegistry });
    expect(res.source).toBe("flag");
    expect(res.sdk?.dir).toBe("/sdk");
    expect(res.candidates.map((c) => [c.source, c.accepted, c.reason])).toEqual([["flag", true, "usable SDK (ok)"]]);
  });

  test("an unusable --sdk is recorded and RA3_SDK is used", () => {
    const res = resolveSdk({ flag: "/plain", env: { RA3_SDK: '"/tw"' }, lister: l, detectors: noRegistry });
    expect(res.source).toBe("env");
    expect(res.sdk?.dir).toBe("/tw");
    expect(res.candidates.map((c) => [c.source, c.raw, c.accepted, c.reason])).toEqual([
      ["flag", "/plain", false, "no Schemas/xsd/CnC3Types.xsd in /plain"],
      ["env", '"/tw"', true, "usable SDK (ok)"],
    ]);
  });

  test("an empty --sdk asks for project-only mode", () => {
    const res = resolveSdk({ flag: "", env: { RA3_SDK: "/tw" }, lister: l, detectors: noRegistry });
    expect(res.sdk).toBeNull();
    expect(res.source).toBe("flag");
    expect(res.candidates.map((c) => c.reason)).toEqual(["empty --sdk: project-only mode"]);
  });

  test("the SDK containing the project (<SDK>/Mods/<name>)", () => {
    const res = resolveSdk({
      env: {},
      lister: l,
      detectors: { projectDir: "/tw/Mods/Commander", queryRegistry: null },
    });
    expect(res.source).toBe("project-parent");
    expect(res.sdk?.dir).toBe("/tw");
    expect(res.sdk?.game).toBe("tw");
  });

  test("the registry: 64-bit key first, then Wow6432Node; partial is usable", () => {
    const asked: string[] = [];
    const query: RegistryQuery = (key, value) => {
      asked.push(`${key}|${value}`);
      return key === SDK_REGISTRY_KEYS[0] ? regOut("/gone") : regOut("/reg");
    };
    const res = resolveSdk({
      env: { RA3_SDK: "  " },
      lister: l,
      detectors: { projectDir: "/elsewhere/X", queryRegistry: query },
    });
    expect(asked).toEqual([
      "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\{F6A3F605-7B10-4939-8D3D-4594332C1649}|InstallLocation",
      "HKLM\\SOFTWARE\\Wow6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\{F6A3F605-7B10-4939-8D3D-4594332C1649}|InstallLocation",
    ]);
    expect(res.source).toBe("registry");
    expect(res.sdk?.status).toBe("partial");
    expect(res.candidates.map((c) => [c.source, c.accepted, c.reason])).toEqual([
      ["flag", false, "--sdk not given"],
      ["env", false, "RA3_SDK not set"],
      ["project-parent", false, "the project is not inside an <SDK>/Mods folder"],
      ["registry", false, "not a directory: /gone"],
      [
        "registry",
        true,
        "usable SDK (partial: missing builtmods/, SageXml/, Mods/, static.xml, global.xml, audio.xml)",
      ],
    ]);
  });

  test("nothing usable ⇒ project-only mode with every rejection listed", () => {
    const res = resolveSdk({
      env: { RA3_SDK: "/nowhere" },
      lister: l,
      detectors: { projectDir: "/plain/Mods/X", queryRegistry: () => null },
    });
    expect(res.sdk).toBeNull();
    expect(res.source).toBeNull();
    expect(res.candidates.map((c) => [c.source, c.reason])).toEqual([
      ["flag", "--sdk not given"],
      ["env", "not a directory: /nowhere"],
      ["project-parent", "no Schemas/xsd/CnC3Types.xsd in /plain"],
      ["registry", "no InstallLocation under the SDK's uninstall key"],
    ]);
  });

  test("registry disabled and no project", () => {
    const res = resolveSdk({ lister: l, detectors: { queryRegistry: null } });
    expect(res.candidates.map((c) => c.reason)).toEqual([
      "--sdk not given",
      "RA3_SDK not set",
      "no project to look around",
      "registry lookup disabled",
    ]);
  });
});
