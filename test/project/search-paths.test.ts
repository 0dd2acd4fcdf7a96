import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CaseResolver } from "../../src/project/case-resolver.ts";
import { Confinement } from "../../src/project/confinement.ts";
import { describeProject } from "../../src/project/detect.ts";
import { NodeDirectoryLister } from "../../src/project/fs-port.ts";
import { MemoryDirectoryLister } from "./memory-lister.ts";
import { validateSdk } from "../../src/project/sdk.ts";
import {
  buildSearchPaths,
  IncludeResolver,
  originOf,
  OUTSIDE_REASON,
  parseIncludeSource,
  resolveIncludeSource,
  type SearchPaths,
  vanillaOnlySearchPaths,
} from "../../src/project/search-paths.ts";
import { removeDir, tempDir, writeTree } from "./tree.ts";

const SDK = [
  "/sdk/Schemas/xsd/CnC3Types.xsd",
  "/sdk/static.xml",
  "/sdk/global.xml",
  "/sdk/audio.xml",
  "/sdk/builtmods/sagexml/static.manifest",
  "/sdk/SageXml/Static.xml",
  "/sdk/SageXml/GlobalData/Weapon.xml",
  "/sdk/SageXml/Vanilla.xml",
  "/sdk/Mods/Inside/Data/Mod.xml",
  "/sdk/Art/ju/JUAntiShip.w3x",
  "/sdk/Art/DI/Direct.w3x",
  "/sdk/Art/Direct.w3x",
  "/sdk/Audio/Sounds/Boom.xml",
];
const MOD = [
  "/work/mods/MyMod/Data/Mod.xml",
  "/work/mods/MyMod/Data/Includes/Units.xml",
  "/work/mods/MyMod/Data/globaldata/weapon.xml",
  "/work/mods/MyMod/Data/Sub Folder/A File.xml",
  "/work/mods/MyMod/Art/AU/AUTank.w3x",
  "/work/mods/MyMod/Art1/Patch.w3x",
  "/work/mods/MyMod/Audio/x.xml",
  "/work/mods/Other/Data/Mod.xml",
  "/work/extra/Shared.xml",
];
const P = "/work/mods/MyMod";
const MODXML = `${P}/Data/Mod.xml`;

const lister = new MemoryDirectoryLister([...SDK, ...MOD]);
const r = new CaseResolver(lister);
const sdk = validateSdk("/sdk", r);
const project = describeProject(P, r);
const paths = buildSearchPaths(project, sdk, [], r);

describe("buildSearchPaths", () => {
  test("BAB order for every prefix with an SDK", () => {
    expect(paths).toEqual({
      DATA: ["/sdk", "/work", `${P}/Data`, "/sdk/Mods", "/work/mods", "/sdk/SageXml"],
      ART: ["/sdk", "/work", `${P}/Art1`, `${P}/Art`, "/sdk/Mods", "/work/mods", "/sdk/Art"],
      AUDIO: ["/sdk", "/work", `${P}/Audio`, "/sdk/Mods", "/work/mods", "/sdk/Audio"],
    });
  });

  test("without an SDK only the project entries remain (no working-folder fallback)", () => {
    const expected: SearchPaths = {
      DATA: ["/work", `${P}/Data`, "/work/mods"],
      ART: ["/work", `${P}/Art1`, `${P}/Art`, "/work/mods"],
      AUDIO: ["/work", `${P}/Audio`, "/work/mods"],
    };
    expect(buildSearchPaths(project, null, [], r)).toEqual(expected);
    // an unusable SDK counts as none
    expect(buildSearchPaths(project, validateSdk("/work/extra", r), [], r)).toEqual(expected);
    expect(buildSearchPaths(project, validateSdk("", r), [], r)).toEqual(expected);
  });

  test("extra DATA paths go last (relative ones against the project; missing ones dropped)", () => {
    const p = buildSearchPaths(project, sdk, ["../../extra", "/nowhere", "/work/mods"], r);
    expect(p.DATA).toEqual(["/sdk", "/work", `${P}/Data`, "/sdk/Mods", "/work/mods", "/sdk/SageXml", "/work/extra"]);
    expect(p.ART).toEqual(paths.ART);
  });

  test("a mod inside SDK/Mods: modParent and modGrandParent collapse onto SDK folders", () => {
    const inside = describeProject("/sdk/Mods/Inside", r);
    expect(buildSearchPaths(inside, sdk, [], r)).toEqual({
      DATA: ["/sdk", "/sdk/Mods/Inside/Data", "/sdk/Mods", "/sdk/SageXml"],
      ART: ["/sdk", "/sdk/Mods", "/sdk/Art"],
      AUDIO: ["/sdk", "/sdk/Mods", "/sdk/Audio"],
    });
  });

  test("vanilla-only lists", () => {
    expect(vanillaOnlySearchPaths(sdk)).toEqual({
      DATA: ["/sdk", "/sdk/SageXml"],
      ART: ["/sdk", "/sdk/Art"],
      AUDIO: ["/sdk", "/sdk/Audio"],
    });
    expect(vanillaOnlySearchPaths(null)).toEqual({ DATA: [], ART: [], AUDIO: [] });
  });
});

describe("parseIncludeSource", () => {
  test("prefixes, separators, leading slashes, absolute paths", () => {
    expect(parseIncludeSource("DATA:static.xml")).toEqual({
      prefix: "DATA",
      remainder: "static.xml",
      isAbsolute: false,
    });
    expect(parseIncludeSource("  data:\\GlobalData\\Weapon.xml ")).toEqual({
      prefix: "DATA",
      remainder: "GlobalData/Weapon.xml",
      isAbsolute: false,
    });
    expect(parseIncludeSource("Art:/AUTank.w3x")).toEqual({
      prefix: "ART",
      remainder: "AUTank.w3x",
      isAbsolute: false,
    });
    expect(parseIncludeSource("AUDIO:///Sounds/x.xml")).toEqual({
      prefix: "AUDIO",
      remainder: "Sounds/x.xml",
      isAbsolute: false,
    });
    expect(parseIncludeSource("C:/Mods/x.xml")).toEqual({ prefix: null, remainder: "C:/Mods/x.xml", isAbsolute: true });
    expect(parseIncludeSource("c:\\Mods\\x.xml")).toEqual({
      prefix: null,
      remainder: "c:/Mods/x.xml",
      isAbsolute: true,
    });
    expect(parseIncludeSource("/Includes/Units.xml")).toEqual({
      prefix: null,
      remainder: "Includes/Units.xml",
      isAbsolute: false,
    });
    expect(parseIncludeSource("..\\Shared.xml")).toEqual({
      prefix: null,
      remainder: "../Shared.xml",
      isAbsolute: false,
    });
    expect(parseIncludeSource("root:x.xml")).toEqual({ prefix: null, remainder: "root:x.xml", isAbsolute: false });
    expect(parseIncludeSource("DATA:C:/x.xml")).toEqual({ prefix: "DATA", remainder: "C:/x.xml", isAbsolute: false });
    expect(parseIncludeSource("DATAx:y.xml")).toEqual({ prefix: null, remainder: "DATAx:y.xml", isAbsolute: false });
  });
});

describe("resolveIncludeSource", () => {
  const res = (raw: string, from = MODXML, p: SearchPaths = paths) => resolveIncludeSource(raw, from, p, r);

  test("relative to the including file's folder", () => {
    expect(res("Includes/Units.xml")).toEqual({
      source: "Includes/Units.xml",
      prefix: null,
      remainder: "Includes/Units.xml",
      resolved: `${P}/Data/Includes/Units.xml`,
      tried: [{ candidate: `${P}/Data/Includes/Units.xml`, hit: true }],
      caseFixed: false,
      twoLetterRule: false,
      outside: false,
    });
    expect(res("../Mod.xml", `${P}/Data/Includes/Units.xml`).resolved).toBe(MODXML);
    expect(res("/Includes/Units.xml").resolved).toBe(`${P}/Data/Includes/Units.xml`);
  });

  test("DATA: through the bases in order", () => {
    expect(res("DATA:MyMod/Data/Includes/Units.xml")).toEqual({
      source: "DATA:MyMod/Data/Includes/Units.xml",
      prefix: "DATA",
      remainder: "MyMod/Data/Includes/Units.xml",
      resolved: `${P}/Data/Includes/Units.xml`,
      tried: [
        { candidate: "/sdk/MyMod/Data/Includes/Units.xml", hit: false },
        { candidate: "/work/MyMod/Data/Includes/Units.xml", hit: false },
        { candidate: `${P}/Data/MyMod/Data/Includes/Units.xml`, hit: false },
        { candidate: "/sdk/Mods/MyMod/Data/Includes/Units.xml", hit: false },
        { candidate: "/work/mods/MyMod/Data/Includes/Units.xml", hit: true },
      ],
      caseFixed: false,
      twoLetterRule: false,
      outside: false,
    });
  });

  test("lower-case data: prefix and backslashes", () => {
    const a = res("data:Includes\\Units.xml");
    expect(a.prefix).toBe("DATA");
    expect(a.resolved).toBe(`${P}/Data/Includes/Units.xml`);
    expect(a.tried.length).toBe(3);
  });

  test("missing ⇒ null with the prefix, the full tried list and a reason", () => {
    expect(res("DATA:Nope.xml")).toEqual({
      source: "DATA:Nope.xml",
      prefix: "DATA",
      remainder: "Nope.xml",
      resolved: null,
      tried: paths.DATA.map((b) => ({ candidate: `${b}/Nope.xml`, hit: false })),
      caseFixed: false,
      twoLetterRule: false,
      outside: false,
      reason: "not found in any of the 6 DATA: search paths",
    });
    const rel = res("Includes/Nope.xml");
    expect(rel.resolved).toBeNull();
    expect(rel.reason).toBe("not found relative to the including file's folder");
    expect(rel.tried).toEqual([{ candidate: `${P}/Data/Includes/Nope.xml`, hit: false }]);
  });

  test("DATA:Static.xml resolves to the SDK-root placeholder, not SageXml/Static.xml", () => {
    const a = res("DATA:Static.xml");
    expect(a.resolved).toBe("/sdk/static.xml");
    expect(a.caseFixed).toBe(true);
    expect(a.tried).toEqual([{ candidate: "/sdk/Static.xml", hit: true }]);
    expect(res("DATA:SageXml/Static.xml").resolved).toBe("/sdk/SageXml/Static.xml");
  });

  test("mod files shadow vanilla for normal includes; vanilla-only lists do not", () => {
    expect(res("DATA:GlobalData/Weapon.xml").resolved).toBe(`${P}/Data/globaldata/weapon.xml`);
    expect(res("DATA:GlobalData/Weapon.xml", MODXML, vanillaOnlySearchPaths(sdk)).resolved).toBe(
      "/sdk/SageXml/GlobalData/Weapon.xml",
    );
    expect(res("DATA:Includes/Units.xml", MODXML, vanillaOnlySearchPaths(sdk)).resolved).toBeNull();
  });

  test("ART: two-letter rule (positive)", () => {
    const a = res("ART:JUAntiShip.w3x");
    expect(a.resolved).toBe("/sdk/Art/ju/JUAntiShip.w3x");
    expect(a.twoLetterRule).toBe(true);
    expect(a.caseFixed).toBe(false);
    expect(a.tried.map((t) => t.candidate)).toEqual([
      ...paths.ART.map((b) => `${b}/JUAntiShip.w3x`),
      ...paths.ART.map((b) => `${b}/ju/JUAntiShip.w3x`),
    ]);
    // the project's upper-case AU folder matches the lower-cased guess
    const b = res("ART:autank.W3X");
    expect(b.resolved).toBe(`${P}/Art/AU/AUTank.w3x`);
    expect(b.twoLetterRule).toBe(true);
    expect(b.caseFixed).toBe(true);
  });

  test("ART: two-letter rule (negative cases)", () => {
    // a direct hit wins over the two-letter folder
    const direct = res("ART:Direct.w3x");
    expect(direct.resolved).toBe("/sdk/Art/Direct.w3x");
    expect(direct.twoLetterRule).toBe(false);
    // a remainder with a folder part is never retried
    const sub = res("ART:Sub/JUAntiShip.w3x");
    expect(sub.resolved).toBeNull();
    expect(sub.tried.length).toBe(paths.ART.length);
    expect(sub.reason).toBe("not found in any of the 7 ART: search paths");
    // only ART: has the rule
    expect(res("DATA:JUAntiShip.w3x").resolved).toBeNull();
    expect(res("AUDIO:JUAntiShip.w3x").resolved).toBeNull();
    const miss = res("ART:ZZMissing.w3x");
    expect(miss.resolved).toBeNull();
    expect(miss.tried.length).toBe(2 * paths.ART.length);
    expect(miss.reason).toBe("not found in any of the 7 ART: search paths, nor in their two-letter folders");
  });

  test("Art1 precedes Art; AUDIO: uses its own list", () => {
    expect(res("ART:Patch.w3x").resolved).toBe(`${P}/Art1/Patch.w3x`);
    expect(res("AUDIO:Sounds/Boom.xml").resolved).toBe("/sdk/Audio/Sounds/Boom.xml");
    expect(res("audio:x.xml").resolved).toBe(`${P}/Audio/x.xml`);
  });

  test("paths with spaces", () => {
    expect(res("Sub Folder\\A File.xml").resolved).toBe(`${P}/Data/Sub Folder/A File.xml`);
    expect(res("DATA:sub folder/a file.xml").resolved).toBe(`${P}/Data/Sub Folder/A File.xml`);
  });

  test("a folder is not an include target; empty sources", () => {
    expect(res("DATA:Includes").resolved).toBeNull();
    expect(res("   ").reason).toBe("empty source");
    expect(res("DATA:").reason).toBe("nothing after DATA:");
    expect(res("DATA:/").reason).toBe("nothing after DATA:");
  });

  test("an empty search list says so", () => {
    const a = resolveIncludeSource("ART:x.w3x", MODXML, { DATA: [], ART: [], AUDIO: [] }, r);
    expect(a.resolved).toBeNull();
    expect(a.tried).toEqual([]);
    expect(a.reason).toBe("the ART: search list is empty");
  });

  test("a drive-letter path is absolute (and cannot exist on POSIX)", () => {
    const a = res("C:\\Mods\\x.xml");
    expect(a.prefix).toBeNull();
    expect(a.resolved).toBeNull();
    expect(a.reason).toBe("absolute path not found");
  });
});

describe("resolveIncludeSource, confined to the allowed roots", () => {
  // /m/mods/X is the mod (roots: it, /m/mods, /m); /etc/passwd exists, /etc/nothing does not.
  const lister = new MemoryDirectoryLister([
    "/m/mods/X/Data/Mod.xml",
    "/m/mods/Other/Data/a.xml",
    "/m/shared.xml",
    "/etc/passwd",
  ]);
  const plain = new CaseResolver(lister);
  const layout = describeProject("/m/mods/X", plain);
  const gated = plain.confined(new Confinement({ projectDir: "/m/mods/X", sdkDir: null }, lister));
  const paths = buildSearchPaths(layout, null, [], plain);
  const from = "/m/mods/X/Data/Mod.xml";
  const resolve = (s: string) => resolveIncludeSource(s, from, paths, gated);

  test("a relative source climbing out, either slash: outside, its candidate not looked up", () => {
    for (
      const [present, absent] of [["../../../../etc/passwd", "../../../../etc/nothing"], [
        "..\\..\\..\\..\\etc\\passwd",
        "..\\..\\..\\..\\etc\\nothing",
      ]]
    ) {
      const a = resolve(present);
      expect(a).toEqual({
        source: present,
        prefix: null,
        remainder: "../../../../etc/passwd",
        resolved: null,
        tried: [{ candidate: "/etc/passwd", hit: false, outside: true }],
        caseFixed: false,
        twoLetterRule: false,
        outside: true,
        reason: OUTSIDE_REASON,
      });
      expect(JSON.stringify(resolve(absent)).replaceAll("nothing", "passwd")).toBe(JSON.stringify(a));
    }
  });

  test("DATA:../../…: each base's candidate checked on its own; inside ones are looked up", () => {
    const r = resolve("DATA:../../etc/passwd");
    // Bases: /m (grandparent) → /etc: outside; Data → /m/mods/etc: a miss; /m/mods → /etc: outside.
    expect([r.tried, r.outside, r.reason]).toEqual([
      [
        { candidate: "/etc/passwd", hit: false, outside: true },
        { candidate: "/m/mods/etc/passwd", hit: false },
        { candidate: "/etc/passwd", hit: false, outside: true },
      ],
      true,
      OUTSIDE_REASON,
    ]);
    // Inside the parent folders: followed as before.
    expect(resolve("DATA:Other/Data/A.xml").resolved).toBe("/m/mods/Other/Data/a.xml");
    expect(resolve("../../../shared.xml").resolved).toBe("/m/shared.xml");
  });

  test("an absolute path outside: outside without a look", () => {
    const r = resolve("/etc/passwd"); // a leading slash is stripped: relative to Data, inside, a miss
    expect([r.resolved, r.outside]).toEqual([null, false]);
    const before = lister.calls;
    expect(resolve("C:/Windows/win.ini")).toMatchObject({ resolved: null, outside: true, reason: OUTSIDE_REASON });
    expect(lister.calls).toBe(before);
  });

  test("a search folder that is a file-system root is not searched, and is not leaving", () => {
    // A mod at /r/X: its grandparent / is in the DATA: list, but not a root.
    const l = new MemoryDirectoryLister(["/r/X/Data/Mod.xml", "/static.xml"]);
    const p = new CaseResolver(l);
    const g = p.confined(new Confinement({ projectDir: "/r/X", sdkDir: null }, l));
    const sp = buildSearchPaths(describeProject("/r/X", p), null, [], p);
    expect(sp.DATA).toEqual(["/", "/r/X/Data", "/r"]);
    const r = resolveIncludeSource("DATA:static.xml", "/r/X/Data/Mod.xml", sp, g);
    expect([r.tried, r.outside, r.reason]).toEqual([
      [
        { candidate: "/static.xml", hit: false, outside: true },
        { candidate: "/r/X/Data/static.xml", hit: false },
        { candidate: "/r/static.xml", hit: false },
      ],
      false,
      "not found in any of the 3 DATA: search paths",
    ]);
    // Below it, what lies inside another root is still found through it.
    expect(resolveIncludeSource("DATA:r/X/Data/Mod.xml", "/r/X/Data/Mod.xml", sp, g).resolved).toBe(
      "/r/X/Data/Mod.xml",
    );
  });
});

describe("IncludeResolver (cached)", () => {
  test("aliased sources are cached per string, relative ones per folder; invalidate forgets", () => {
    const l = new MemoryDirectoryLister([...SDK, ...MOD]);
    const cr = new CaseResolver(l);
    const ir = new IncludeResolver(buildSearchPaths(describeProject(P, cr), validateSdk("/sdk", cr), [], cr), cr);
    const a = ir.resolve("DATA:Includes/Units.xml", MODXML);
    expect(ir.resolve("DATA:Includes/Units.xml", `${P}/Data/Includes/Units.xml`)).toBe(a);
    const b = ir.resolve("Units.xml", `${P}/Data/Includes/Units.xml`);
    expect(b.resolved).toBe(`${P}/Data/Includes/Units.xml`);
    expect(ir.resolve("Units.xml", MODXML).resolved).toBeNull();
    expect(ir.stats()).toEqual({ hits: 1, misses: 3, cached: 3 });

    l.addFile(`${P}/Data/Units.xml`);
    expect(ir.resolve("Units.xml", MODXML).resolved).toBeNull(); // cached
    ir.invalidate();
    expect(ir.resolve("Units.xml", MODXML).resolved).toBe(`${P}/Data/Units.xml`);
  });
});

describe("on a real case-sensitive file system", () => {
  const root = tempDir();
  afterAll(() => removeDir(root));
  writeTree(root, {
    "My Mods/Big Mod/Data/Mod.xml": "",
    "My Mods/Big Mod/Data/Includes/Units.xml": "",
    "My Mods/Big Mod/Art/Ju/JUTank.w3x": "",
  });
  const proj = join(root, "My Mods/Big Mod");

  test("case fix-up returns on-disk casing and reports it", () => {
    const nr = new CaseResolver(new NodeDirectoryLister());
    const p = buildSearchPaths(describeProject(proj, nr), null, [], nr);
    expect(p.DATA).toEqual([root, join(proj, "Data"), join(root, "My Mods")]);
    const a = resolveIncludeSource("DATA:INCLUDES\\units.XML", join(proj, "Data/Mod.xml"), p, nr);
    expect(a.resolved).toBe(join(proj, "Data/Includes/Units.xml"));
    expect(a.caseFixed).toBe(true);
    const b = resolveIncludeSource("Includes/Units.xml", join(proj, "Data/Mod.xml"), p, nr);
    expect(b.caseFixed).toBe(false);
    const c = resolveIncludeSource("ART:JUTank.w3x", join(proj, "Data/Mod.xml"), p, nr);
    expect(c.resolved).toBe(join(proj, "Art/Ju/JUTank.w3x"));
    expect(c.twoLetterRule).toBe(true);
  });
});

describe("originOf", () => {
  test("project first, then sdk, else project; separator- and case-agnostic", () => {
    expect(originOf("/sdk/Mods/X/Data/a.xml", "/sdk/Mods/X", "/sdk")).toBe("project");
    expect(originOf("/sdk/SageXml/a.xml", "/sdk/Mods/X", "/sdk")).toBe("sdk");
    expect(originOf("/work/mods/Shared/a.xml", "/work/mods/X", "/sdk")).toBe("project");
    expect(originOf("C:\\SDK\\SageXml\\a.xml", "C:/SDK/Mods/X", "c:/sdk")).toBe("sdk");
    expect(originOf("C:\\SDK\\Mods\\x\\Data\\a.xml", "c:/sdk/mods/X", "C:\\SDK")).toBe("project");
    expect(originOf("/sdk2/a.xml", "/p", "/sdk")).toBe("project");
    expect(originOf("/sdk/a.xml", "/p", null)).toBe("project");
  });
});
