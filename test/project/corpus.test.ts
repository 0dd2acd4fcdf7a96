import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CaseResolver } from "../../src/project/case-resolver.ts";
import { describeProject, findProjectRoot, findProjectsBelow } from "../../src/project/detect.ts";
import { NodeDirectoryLister } from "../../src/project/fs-port.ts";
import { detectGameFromAssetNames, resolveSdk, validateSdk } from "../../src/project/sdk.ts";
import { buildSearchPaths, IncludeResolver, resolveIncludeSource } from "../../src/project/search-paths.ts";
import { scanProjectFiles } from "../../src/project/scan.ts";
import { CORPORA } from "../../scripts/corpora.ts";

const corpora = CORPORA;
const up = join(corpora, "upheaval");
const tw = join(corpora, "tw-sdk");
const ra3xsd = join(corpora, "ra3-xsd");
const commander = join(tw, "Mods", "Commander");

const STRUCTURAL = new Set(["AssetDeclaration", "Tags", "Tag", "Includes", "Include", "Defines", "Define"]);

/** Top-level asset names of a CnC3Types.xsd: the elements declared after `AssetDeclaration`, minus the structural ones. */
function assetNames(xsd: string): string[] {
  const text = readFileSync(xsd, "utf8");
  const tail = text.slice(text.indexOf('<xs:element name="AssetDeclaration">'));
  return [...tail.matchAll(/<xs:element name="([A-Za-z0-9_]+)"/g)].map((m) => m[1]).filter((n) => !STRUCTURAL.has(n));
}

describe("Upheaval corpus", () => {
  test.skipIf(!existsSync(up))("findProjectRoot from a deep folder and from a file", () => {
    const r = new CaseResolver(new NodeDirectoryLister());
    expect(findProjectRoot(join(up, "Misc/Data/Maps/Official/map_mp_4_feasel4_ep1/Overrides"), r)).toEqual({
      dir: up,
      marker: "mod",
    });
    expect(findProjectRoot(join(up, "Art/Units/Allied Engineer"), r)).toEqual({ dir: up, marker: "mod" });
    expect(findProjectRoot(join(up, "Data/Mod/Units/Reaper/W3X.xml"), r)).toEqual({ dir: up, marker: "mod" });
  });

  test.skipIf(!existsSync(up))("describeProject: exact entry files and streams", () => {
    expect(describeProject(up, new NodeDirectoryLister())).toEqual({
      dir: up,
      marker: "mod",
      dataDir: join(up, "Data"),
      modXml: join(up, "Data/Mod.xml"),
      staticXml: null,
      additionalMapsDir: join(up, "Data/AdditionalMaps"),
      mapMetadata: [join(up, "Data/AdditionalMaps/MapMetaData_Global.xml")],
      babprojFiles: [join(up, "mod.babproj")],
      artDirs: [join(up, "Art")],
      audioDirs: [],
    });
  });

  test.skipIf(!existsSync(up))("scanProjectFiles counts every kind", () => {
    const counts: Record<string, number> = {};
    for (const f of scanProjectFiles(up)) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
    expect(counts).toEqual({ babproj: 1, xml: 444, w3x: 513, str: 1 });
  });

  test.skipIf(!existsSync(up))("project-only mode: every relative and project ART: include resolves", () => {
    const r = new CaseResolver(new NodeDirectoryLister());
    const paths = buildSearchPaths(describeProject(up, r), null, [], r);
    expect(paths.ART).toEqual([join(corpora, ".."), join(up, "Art"), corpora]);
    const ir = new IncludeResolver(paths, r);
    const tally: Record<string, [number, number]> = {};
    for (const f of scanProjectFiles(up)) {
      if (f.kind !== "xml") continue;
      for (
        const m of readFileSync(f.path, "utf8").matchAll(/<(?:Include|xi:include)\b[^>]*?(?:source|href)="([^"]*)"/g)
      ) {
        const res = ir.resolve(m[1], f.path);
        const k = res.prefix ?? "relative";
        tally[k] ??= [0, 0];
        tally[k][res.resolved ? 0 : 1]++;
      }
    }
    // [resolved, unresolved]; the misses point into the absent vanilla SDK (SageXml, placeholders, vanilla art)
    expect(tally).toEqual({ relative: [406, 0], DATA: [25, 2415], ART: [513, 102] });
    const spaced = ir.resolve("ART:Units/Allied Engineer/AUHealthTent_Upheaval_CTR.w3x", join(up, "Data/Mod.xml"));
    expect(spaced.resolved).toBe(join(up, "Art/Units/Allied Engineer/AUHealthTent_Upheaval_CTR.w3x"));
  });
});

describe("Tiberium Wars SDK corpus", () => {
  test.skipIf(!existsSync(tw))("validateSdk: exact result", () => {
    expect(validateSdk(tw, new NodeDirectoryLister())).toEqual({
      dir: tw,
      status: "ok",
      missing: [],
      schemaDir: join(tw, "Schemas/xsd"),
      schemaFile: join(tw, "Schemas/xsd/CnC3Types.xsd"),
      vanillaDir: join(tw, "CnC3Xml"),
      builtmodsDirs: [join(tw, "BuiltMods")],
      manifestDirs: [join(tw, "BuiltMods"), join(tw, "BuiltMods/CnC3Xml")],
      modsDir: join(tw, "Mods"),
      artDir: null,
      audioDir: null,
      placeholders: [],
      game: "tw",
    });
  });

  test.skipIf(!existsSync(tw))(
    "the Commander mod: lower-case data, SDK found from the project, DATA:static.xml → CnC3Xml/Static.xml",
    () => {
      const r = new CaseResolver(new NodeDirectoryLister());
      expect(findProjectsBelow(tw, r)).toEqual([{ dir: commander, marker: "mod" }]);
      const layout = describeProject(commander, r);
      expect(layout.modXml).toBe(join(commander, "data/Mod.xml"));
      const chosen = resolveSdk({ env: {}, lister: r, detectors: { projectDir: commander, queryRegistry: null } });
      expect(chosen.source).toBe("project-parent");
      const paths = buildSearchPaths(layout, chosen.sdk, [], r);
      expect(paths.DATA).toEqual([tw, join(commander, "data"), join(tw, "Mods"), join(tw, "CnC3Xml")]);
      const res = resolveIncludeSource("DATA:static.xml", layout.modXml!, paths, r);
      expect(res.resolved).toBe(join(tw, "CnC3Xml/Static.xml"));
      expect(res.caseFixed).toBe(true);
      expect(res.tried.map((t) => t.hit)).toEqual([false, false, false, true]);
      expect(resolveIncludeSource("DATA:global.xml", layout.modXml!, paths, r).resolved).toBe(
        join(tw, "CnC3Xml/global.xml"),
      );
      // the mod's own includes are written with "Data", the folder on disk is "data"
      const own = resolveIncludeSource("DATA:Commander/Data/AI/GDICommander.xml", layout.modXml!, paths, r);
      expect(own.resolved).toBe(join(commander, "data/AI/GDICommander.xml"));
      expect(own.caseFixed).toBe(true);
    },
  );

  test.skipIf(!existsSync(tw))("game from the TW schema's asset names", () => {
    const names = assetNames(join(tw, "Schemas/xsd/CnC3Types.xsd"));
    expect(new Set(names).size).toBe(127);
    expect(detectGameFromAssetNames(names)).toBe("tw");
  });
});

describe("RA3 schema corpus", () => {
  test.skipIf(!existsSync(ra3xsd))("game from the RA3 schema's asset names", () => {
    const names = assetNames(join(ra3xsd, "CnC3Types.xsd"));
    expect(new Set(names).size).toBe(292);
    expect(detectGameFromAssetNames(names)).toBe("ra3");
  });
});
