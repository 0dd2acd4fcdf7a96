/**
 * The Upheaval mod (`$RA3_CORPORA/upheaval`): a real RA3 mod without its SDK (project-only mode),
 * indexed with the RA3 schema set (`$RA3_CORPORA/ra3-xsd`). One build for the whole file, plus one
 * run of the CLI (`ra3 check --format sarif`) through `run()`. Skips when the corpora are absent.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { LinkedIndex } from "../../src/index/linked.ts";
import { toSarif } from "../../src/cli/sarif.ts";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { countsByType, findAsset } from "../../src/query/assets.ts";
import { collectDiagnostics } from "../../src/query/check.ts";
import { findReferences } from "../../src/query/references.ts";
import { unreferenced } from "../../src/query/unreferenced.ts";
import { uses } from "../../src/query/uses.ts";
import { resolveConfig } from "../../src/workspace/config.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { ok } from "../query/sample.ts";
import { sarifLog } from "./sarif-schema.ts";
import { tempDirs } from "../temp-dirs.ts";
import { CORPORA } from "../../scripts/corpora.ts";

const TMP = tempDirs();

const UPHEAVAL = join(CORPORA, "upheaval");
const RA3_XSD = join(CORPORA, "ra3-xsd");
const present = existsSync(UPHEAVAL) && existsSync(RA3_XSD);

/** One state folder for the file: the CLI run reuses the parsed-schema cache of the first build. */
const HOME = TMP.make("ra3-upheaval-home-");

async function build(): Promise<{ ws: Workspace; linked: LinkedIndex }> {
  const cfg = resolveConfig({ project: UPHEAVAL, sdk: "", schema: RA3_XSD, home: HOME, env: {} });
  if ("envError" in cfg) throw new Error(cfg.envError);
  const ws = new Workspace(cfg);
  await ws.build();
  return { ws, linked: ws.linked! };
}
const built = present ? await build() : null;
const rel = (p: string) => p.slice(UPHEAVAL.length + 1);

describe.skipIf(!present)("Upheaval, project-only", () => {
  test("project-only, with the RA3 schema from the flag", () => {
    const { ws } = built!;
    expect([ws.config.sdk, ws.config.schemaSource, ws.game]).toEqual([null, "flag", "ra3"]);
  });

  test("entry points and streams: Mod.xml, the map-metadata global stream and the three extra babproj streams", () => {
    const { linked } = built!;
    expect(linked.streams.map((s) => `${s.name} ${rel(s.entry)} ${s.files}`)).toEqual([
      "static Data/Mod.xml 884",
      "global:MapMetaData_Global Data/AdditionalMaps/MapMetaData_Global.xml 9",
      "babproj:TacticalHUDBuildQueuePage Data/AptUI/TacticalHUDBuildQueuePage.xml 2",
      "babproj:TacticalHUDCommandListBox Data/AptUI/TacticalHUDCommandListBox.xml 2",
      "babproj:TacticalHUDMainCommandBar Data/AptUI/TacticalHUDMainCommandBar.xml 2",
    ]);
    expect([linked.stats.projectFiles, linked.stats.activeFiles]).toEqual([957, 899]);
  });

  test("asset count by type", () => {
    // Measured: 3,866 top-level definitions in 50 types, counting every XML and .w3x under the root (active or
    // not) and root-level xi:include children (SOURCES.md's "about 3,350 of 45 types" counted fewer files).
    const { linked } = built!;
    expect(linked.stats.assets).toBe(3866);
    expect(Object.fromEntries(countsByType(linked, "project").map((c) => [c.type, c.count]))).toEqual({
      AudioFile: 1289,
      GameScriptList: 445,
      AudioEvent: 302,
      FXParticleSystemTemplate: 216,
      W3DAnimation: 194,
      W3DMesh: 138,
      Texture: 115,
      GameObject: 114,
      WeaponTemplate: 109,
      AptGeometryData: 89,
      FXList: 84,
      W3DContainer: 75,
      W3DHierarchy: 72,
      ExperienceLevelTemplate: 65,
      Multisound: 50,
      PackedTextureImage: 46,
      PlayerTech: 45,
      W3DCollisionBox: 34,
      LogicCommandSet: 32,
      ObjectCreationList: 29,
      GameMap: 28,
      TerrainTextureAtlas: 28,
      SpecialPowerTemplate: 27,
      AIPersonalityDefinition: 26,
      LogicCommand: 23,
      AIBuildStateDefinition: 18,
      AttributeModifier: 17,
      ButtonSingleStateData: 17,
      UpgradeTemplate: 14,
      ArmorTemplate: 12,
      LocomotorTemplate: 12,
      UnitAbilityButtonTemplate: 12,
      Video: 12,
      VideoEventList: 12,
      UnitIntro: 11,
      DamageFX: 7,
      ObjectFilterAsset: 7,
      OnDemandTextureImage: 7,
      AmbientStream: 6,
      HealthBarTemplate: 6,
      AptAptData: 3,
      AptConstData: 3,
      AptDatData: 3,
      PlayerTechStoreTemplate: 3,
      UnitTypeIcon: 3,
      OnDemandTexture: 2,
      Credits: 1,
      HealthBarSettings: 1,
      MapMetaData: 1,
      RadiusCursor: 1,
    });
  });

  test("the includes into the absent SDK are ONE sdk-not-configured summary, never one include-not-found each", () => {
    const { linked } = built!;
    const codes = (c: string) => linked.diagnostics.filter((d) => d.code === c);
    expect(codes("sdk-not-configured").map((d) => [d.severity, d.file, d.message])).toEqual([
      [
        "information",
        null,
        "124 includes of 44 DATA:/ART:/AUDIO: sources point into the SDK (e.g. DATA:static.xml, DATA:global.xml, DATA:audio.xml)",
      ],
    ]);
    expect(codes("include-not-found")).toEqual([]);
    // And the references to vanilla assets are one summary too.
    expect(codes("external-references").map((d) => d.message)).toEqual([
      "5359 references point at assets outside the project (and 82998 more in files no entry point includes)",
    ]);
    expect(codes("unresolved-reference").length + codes("wrong-type-reference").length).toBe(0);
  });

  test("find SovietDesolatorInfantry: file and line", () => {
    const { linked } = built!;
    expect(
      ok(findAsset(linked, "SovietDesolatorInfantry")).definitions.map((d) =>
        `${d.type} ${d.file}:${d.line}:${d.column} ${d.origin}`
      ),
    ).toEqual([
      "GameObject Data/Mod/Units/Desolator/GameObject.xml:9:7 project",
    ]);
  });

  test("uses SovietDesolatorInfantry --target-type WeaponTemplate: its weapons with provenance", () => {
    const { linked } = built!;
    const file = "Data/Mod/Units/Desolator/GameObject.xml";
    const desolator = { type: "GameObject", id: "SovietDesolatorInfantry" };
    const weapon = (id: string, line: number) => ({
      type: "WeaponTemplate",
      id,
      file: "Data/Mod/Units/Desolator/WeaponTemplate.xml",
      line,
      status: "resolved" as const,
    });
    const slot = {
      kind: "attribute" as const,
      element: "Weapon",
      parent: "WeaponSlotHardpoint",
      attribute: "Template",
    };
    const state = { kind: "attribute" as const, element: "StateWeapon", parent: "SkirmishAiInfo", attribute: "Weapon" };
    const r = ok(uses(linked, "SovietDesolatorInfantry", { targetTypes: ["WeaponTemplate"] }));
    expect(r.edges).toEqual([
      // The base is vanilla (DATA:SageXml/BaseObjects/BaseInfantry.xml, absent without the SDK): unresolved.
      {
        from: desolator,
        to: { type: "GameObject", id: "BaseInfantry", file: null, line: null, status: "not_found" as const },
        via: {
          kind: "inheritFrom" as const,
          element: "GameObject",
          parent: "AssetDeclaration",
          attribute: "inheritFrom",
        },
        source: { file, line: 10 },
        depth: 1,
      },
      { from: desolator, to: weapon("SovietDesolatorSpray", 4), via: slot, source: { file, line: 663 }, depth: 1 },
      { from: desolator, to: weapon("SovietBlatGun", 119), via: slot, source: { file, line: 670 }, depth: 1 },
      { from: desolator, to: weapon("SovietDesolatorSpray", 4), via: state, source: { file, line: 694 }, depth: 1 },
      { from: desolator, to: weapon("SovietBlatGun", 119), via: state, source: { file, line: 707 }, depth: 1 },
      {
        from: desolator,
        to: weapon("DesolatorDeathWeapon", 229),
        via: {
          kind: "attribute" as const,
          element: "FireWeaponWhenDead",
          parent: "Behaviors",
          attribute: "DeathWeapon",
        },
        source: { file, line: 740 },
        depth: 1,
      },
    ]);
    expect([r.truncated, r.inheritChain]).toEqual([false, []]);
  });

  test("reference kinds without the SDK: death sounds are runtime names, defaults name vanilla assets only, overrides", () => {
    const { linked } = built!;
    const byKind: Record<string, number> = {};
    for (const s of linked.sites) byKind[s.kind] = (byKind[s.kind] ?? 0) + 1;
    // Every default the RA3 XSDs give a reference attribute (DefaultTargetingCompareList,
    // GenericSpecialPowerObjectFilter, …) names a vanilla asset, not indexed without the SDK: no default site.
    expect(byKind).toEqual({ attribute: 90221, inheritFrom: 520, content: 2976, name: 20 });
    // Four <SlowDeath> sounds of the Cryo Legionnaire (checked by hand): find_unreferenced listed the event before.
    const die = ok(findReferences(linked, "ALL_CryoLegionnaire_VoiceDie"));
    expect(die.references.map((r) => `${r.file}:${r.line} ${r.from?.id} ${r.kind} ${r.element}@${r.attribute}`))
      .toEqual(
        [700, 724, 747, 761].map((n) =>
          `Data/Mod/Units/Cryo Legionnaire/GameObject.xml:${n} AlliedLegionnaireInfantry name Sound@List`
        ),
      );
    // id="X" inheritFrom="X" extends the vanilla copy: not a cycle without the SDK.
    expect(linked.diagnostics.filter((d) => d.code === "inherit-cycle")).toEqual([]);
    const r = ok(unreferenced(linked));
    expect([r.total, r.overridesLeftOut]).toEqual([216, 2]);
  });

  test("toSarif of every diagnostic is valid SARIF 2.1.0, one result per diagnostic, paths with spaces encoded", () => {
    const { linked } = built!;
    const all = ok(collectDiagnostics(linked, null));
    const log = toSarif(linked.projectDir, all.diagnostics);
    const parsed = sarifLog.safeParse(log);
    expect(parsed.success ? [] : parsed.error.issues.slice(0, 5)).toEqual([]);
    const results = parsed.data!.runs[0].results!;
    expect(results.length).toBe(all.diagnostics.length);
    const uris = results.flatMap((r) => r.locations?.map((l) => l.physicalLocation.artifactLocation.uri) ?? []);
    expect(uris.some((u) => u.includes("%20"))).toBe(true);
  });
});

describe.skipIf(!present)("Upheaval through the CLI", () => {
  // A full build inside the test: a generous timeout, since the machine may be busy (not a timing assertion).
  test(
    "ra3 check --format sarif: exit 1 (errors exist), stdout one valid SARIF 2.1.0 document equal to toSarif of the index",
    async () => {
      const io = memoryIo(UPHEAVAL, {});
      const status = await run([
        "check",
        "--format",
        "sarif",
        "--project",
        UPHEAVAL,
        "--schema",
        RA3_XSD,
        "--home",
        HOME,
        "--no-progress",
      ], io);
      expect([status, io.stderr]).toEqual([1, ""]);
      const doc = JSON.parse(io.stdout);
      const parsed = sarifLog.safeParse(doc);
      expect(parsed.success ? [] : parsed.error.issues.slice(0, 5)).toEqual([]);
      const { linked } = built!;
      expect(doc).toEqual(toSarif(linked.projectDir, ok(collectDiagnostics(linked, null)).diagnostics));
      const levels = new Map<string, number>();
      for (const r of doc.runs[0].results) levels.set(r.level, (levels.get(r.level) ?? 0) + 1);
      // All 193 schema warnings came from Misc/Data/Scripts/ScriptEvents.xml (a Lua script-event section, not
      // asset XML): now none, and one foreign-xml note for that file.
      expect(Object.fromEntries(levels)).toEqual({ error: 37, note: 4 });
    },
    120_000,
  );
});
