/**
 * The real schema sets in the corpora folder (RA3_CORPORA, default ../shared/corpora; skipped when absent): the RA3 SDK set (Appendix A of
 * domain-spec, formats.md counts) and the Tiberium Wars set.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadSchema, type SchemaLoadResult } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { CORPORA } from "../../scripts/corpora.ts";

const RA3 = join(CORPORA, "ra3-xsd");
const TW = join(CORPORA, "tw-sdk", "Schemas", "xsd");

let ra3Result: SchemaLoadResult | null = null;
let ra3Schema: Schema | null = null;
function ra3(): { result: SchemaLoadResult; schema: Schema } {
  ra3Result ??= loadSchema(RA3);
  ra3Schema ??= new Schema(ra3Result.model!);
  return { result: ra3Result, schema: ra3Schema };
}

function refOf(schema: Schema, type: string, attr: string): [string | null, string | null, boolean] | null {
  const a = schema.attribute(type, attr);
  return a && [a.typeName, a.refType, a.isPoid];
}

function typeOfPath(schema: Schema, ...path: string[]): string | null {
  let type = schema.rootElementType(path[0]);
  for (const local of path.slice(1)) type = schema.childElementType(type, local)?.type ?? null;
  return type;
}

describe.skipIf(!existsSync(RA3))("RA3 SDK schema set", () => {
  // The first test loads the XSD set: a generous timeout for a busy machine (not a timing assertion).
  test("loads cleanly: 815 of the 821 files are reachable from CnC3Types.xsd", () => {
    const { result } = ra3();
    expect(result.diagnostics).toEqual([]);
    expect(result.files).toHaveLength(815);
    expect(result.model!.fileCount).toBe(815);
    expect(result.model!.game).toBe("ra3");
    // include paths written `includes/…` resolve to the folder `Includes`
    expect(result.files.some((f) => f.endsWith(join("Includes", "Ref.xsd")))).toBe(true);
  }, 60_000);

  test("counts (formats.md §2: 168 refType = 90 simple types + 61 attributes + 15 elements + 2 complex types)", () => {
    const { result } = ra3();
    expect(result.stats).toEqual({
      namedComplexTypes: 1343,
      namedSimpleTypes: 469,
      inlineComplexTypes: 50,
      inlineSimpleTypes: 1,
      globalElements: 1,
      listTypes: 82,
      // formats.md says 3,239: the other 2 sit in GameData.xsd, which nothing includes
      enumerationValues: 3237,
      refTypeOn: { simpleType: 90, attribute: 61, element: 15, complexType: 2 },
      directTargets: 118,
    });
    expect(Object.keys(result.model!.complexTypes)).toHaveLength(1393);
    expect(Object.keys(result.model!.simpleTypes)).toHaveLength(470);
  });

  test("292 asset kinds (Appendix B), element name = type name", () => {
    const m = ra3().result.model!;
    expect(m.assetElements).toHaveLength(292);
    expect(m.assetElements.slice(0, 5)).toEqual([
      "TestGameObject",
      "TestTexture",
      "TestTextureCollection",
      "WeaponTemplate",
      "LocomotorTemplate",
    ]);
    expect(m.assetElements.filter((k) => m.assetElementTypes[k] !== k)).toEqual([]);
    for (const k of ["Tags", "Includes", "Defines"]) expect(m.assetElements).not.toContain(k);
  });

  test("Appendix A: GameObject", () => {
    const { schema } = ra3();
    expect(refOf(schema, "GameObject", "CommandSet")).toEqual(["LogicCommandSetWeakRef", "LogicCommandSet", false]);
    expect(refOf(schema, "GameObject", "Side")).toEqual(["PlayerTemplateWeakRef", "PlayerTemplate", false]);
    expect(schema.attribute("GameObject", "id")?.required).toBe(true);
    expect(schema.attribute("GameObject", "inheritFrom")).not.toBeNull();
    expect(schema.typeChain("GameObject")).toEqual(["GameObject", "BaseInheritableAsset", "BaseAssetType"]);
    expect(schema.attribute("GameObject", "KindOf")?.enumValues.length).toBe(284);
  });

  test("Appendix A: attribute-level refTypes and Poids", () => {
    const { schema } = ra3();
    expect(refOf(schema, "LocomotorSet", "Locomotor")).toEqual(["AssetReference", "LocomotorTemplate", false]);
    expect(refOf(schema, "ArmorTemplateSet", "Armor")).toEqual(["AssetReference", "ArmorTemplate", false]);
    expect(schema.attribute("LocomotorSet", "Condition")?.enumValues).toHaveLength(19);
    expect(refOf(schema, "ModuleData", "id")).toEqual(["Poid", "ModuleData", true]);
    expect(refOf(schema, "W3DTruckDrawModuleData", "id")).toEqual(["Poid", "ModuleData", true]);
    expect(refOf(schema, "MapObject", "id")).toEqual(["Poid", "MapObject", true]);
    expect(refOf(schema, "MapObject", "ThingTemplate")).toEqual(["AssetReference", "GameObject", false]);
    expect(refOf(schema, "RoadObject", "id")).toEqual(["AssetReference", "Road", false]);
    expect(refOf(schema, "AttachNugget", "AttachModuleId")).toEqual(["Poid", "ModuleData", true]);
    expect(refOf(schema, "ReconstituteStateSpecialAbilityModuleData", "UpdateModuleId")).toEqual([
      "Poid",
      "ModuleData",
      true,
    ]);
  });

  test("Appendix A: typed references", () => {
    const { schema } = ra3();
    // The element <FireWeaponNugget> (inline type in FireWeaponUpdate) has WeaponName; the named type
    // FireWeaponNugget (an OCL nugget) has Weapon. Both reference WeaponTemplate.
    const nugget = schema.childElementType("FireWeaponUpdateModuleData", "FireWeaponNugget")!;
    expect(nugget.type).toBe("@inline:FireWeaponUpdateModuleData/FireWeaponNugget");
    expect(refOf(schema, nugget.type!, "WeaponName")).toEqual(["WeaponRef", "WeaponTemplate", false]);
    expect(refOf(schema, "FireWeaponNugget", "Weapon")).toEqual(["WeaponRef", "WeaponTemplate", false]);
    expect(refOf(schema, "SoundOrEvaEvent", "Sound")).toEqual(["AudioEventInfoRef", "BaseAudioEventInfo", false]);
    expect(refOf(schema, "SideSound", "Side")).toEqual(["PlayerTemplateWeakRef", "PlayerTemplate", false]);
    expect(refOf(schema, "ScriptedModelDrawModel", "Name")).toEqual(["RenderObjectRef", "BaseRenderAssetType", false]);
    expect(refOf(schema, "ProjectileNuggetType", "WarheadTemplate")).toEqual(["WeaponRef", "WeaponTemplate", false]);
    expect(refOf(schema, "WeaponTemplate", "FireSound")).toEqual(["AudioEventInfoRef", "BaseAudioEventInfo", false]);
  });

  test("Appendix A: base types, Include, Define, EvaEvent", () => {
    const { schema, result } = ra3();
    const st = result.model!.simpleTypes;
    expect([st.AssetReference.isRef, st.AssetReference.refType]).toEqual([true, null]);
    expect([st.Poid.isWeakRef, st.Poid.isPoid]).toEqual([true, true]);
    expect(schema.content("GameObjectWeakRef")?.refType).toBe("GameObject");
    expect(schema.content("WeakReference")?.refType).toBeNull();
    expect(schema.attribute("Include", "type")?.enumValues).toEqual(["reference", "instance", "all"]);
    expect(schema.attribute("Include", "source")?.typeName).toBe("xs:anyURI");
    expect(Object.keys(result.model!.complexTypes.Define.attributes)).toEqual(["name", "value", "override"]);
    expect(schema.attribute("Define", "value")?.required).toBe(true);
    expect(schema.attribute("Define", "override")?.isBoolean).toBe(true);
    for (const a of ["Priority", "TimeBetweenEvents", "ExpirationTime"]) {
      expect(schema.attribute("EvaEvent", a)).not.toBeNull();
    }
  });

  test("hierarchy: W3DHierarchy is an asset but not a render object", () => {
    const { schema } = ra3();
    expect(schema.isAssignable("W3DContainer", "BaseRenderAssetType")).toBe(true);
    expect(schema.isAssignable("W3DMesh", "BaseRenderAssetType")).toBe(true);
    expect(schema.isAssignable("W3DHierarchy", "BaseRenderAssetType")).toBe(false);
    expect(schema.isAssetType("W3DHierarchy")).toBe(true);
    expect(schema.isAssignable("WeaponTemplate", "GameObject")).toBe(false);
    expect(schema.typeChain("W3DTruckDrawModuleData")).toEqual([
      "W3DTruckDrawModuleData",
      "W3DScriptedModelDrawModuleData",
      "DrawModuleData",
      "ModuleData",
    ]);
  });

  test("context-aware typing: Weapon, TruckDraw, EvaEvent", () => {
    const { schema, result } = ra3();
    expect(typeOfPath(schema, "GameObject", "Behaviors", "WeaponSetUpdate", "WeaponSlotTurret")).toBe(
      "WeaponSlot_Turret",
    );
    expect(typeOfPath(schema, "GameObject", "Behaviors", "WeaponSetUpdate", "WeaponSlotTurret", "Weapon")).toBe(
      "WeaponSlot_WeaponData",
    );
    expect(schema.attribute("WeaponSlot_WeaponData", "Ordering")).not.toBeNull();
    expect(result.model!.globalElements.Weapon).toBe("WeaponRef");
    expect(typeOfPath(schema, "GameObject", "Draws", "TruckDraw")).toBe("W3DTruckDrawModuleData");
    expect(schema.rootElementType("EvaEvent")).toBe("EvaEvent");
    expect(result.model!.globalElements.EvaEvent).toBe("EvaEventFXNugget");
    expect(schema.rootElementType("UpgradeTemplate")).toBe("UpgradeTemplate");
    expect(typeOfPath(schema, "GameObject", "Draws", "ScriptedModelDraw", "ModelConditionState", "Model")).toBe(
      "ScriptedModelDrawModel",
    );
  });

  test("simple content (§6.1 examples)", () => {
    const { schema } = ra3();
    expect(schema.content("AudioFileRefWithWeight")?.refType).toBe("AudioFile");
    expect(Object.keys(ra3().result.model!.complexTypes.AudioFileRefWithWeight.attributes)).toEqual([
      "Weight",
      "Volume",
    ]);
    expect(schema.content("MultisoundSubsoundRef")?.refType).toBe("BaseAudioEventInfo");
    expect(Object.keys(ra3().result.model!.complexTypes.MultisoundSubsoundRef.attributes)).toEqual([
      "Weight",
      "PitchShiftLow",
      "PitchShiftHigh",
      "Volume",
      "PlayPercent",
      "VolumeShift",
    ]);
    expect(schema.content("@inline:AnimationChannelScalar/Frame")?.typeName).toBe("xs:float");
    expect(schema.content("@inline:AnimationChannelScalar/Frame")?.refType).toBeNull();
    // element-level refType on WeakReference content (domain-spec §6.7 calls these untyped; the XSD types them)
    expect(schema.childElementType("ObjectFilter", "IncludeThing")?.content?.refType).toBe("GameObject");
    expect(schema.childElementType("ObjectCreationList", "CreateObject")?.type).toBe("CreateObjectNugget");
    expect(schema.childElementType("CreateObjectNugget", "CreateObject")?.content?.refType).toBe("GameObject");
    expect(schema.childElementType("LogicCommandSet", "Cmd")?.content?.refType).toBe("LogicCommand");
  });

  test("lists, defines, booleans", () => {
    const st = ra3().result.model!.simpleTypes;
    expect(st.LocomotorSurfaceBitFlags.isList).toBe(true);
    expect(st.LocomotorSurfaceBitFlags.enumValues).toEqual([
      "GROUND",
      "WATER",
      "CLIFF",
      "AIR",
      "RUBBLE",
      "OBSTACLE",
      "IMPASSABLE",
      "DEEP_WATER",
      "WALL_RAILING",
      "CRUSHABLE_OBSTACLE",
      "CRUSHABLE_WALL",
    ]);
    expect([st.SageUnsignedIntList.isList, st.SageUnsignedIntList.enumValues, st.SageUnsignedIntList.allowsDefine])
      .toEqual([true, [], true]);
    for (const n of ["SageReal", "SageInt", "Time", "Percentage", "Angle"]) {
      expect([n, st[n].allowsDefine]).toEqual([n, true]);
    }
    expect(st.InstanceId.allowsDefine).toBe(false);
    expect(st.Poid.allowsDefine).toBe(false);
    expect(st.SageBool.isBoolean).toBe(true);
  });

  test("designed targets (§9.1)", () => {
    const { schema, result } = ra3();
    for (
      const t of ["GameObject", "WeaponTemplate", "LogicCommandSet", "FXList", "W3DContainer", "AudioEvent", "Road"]
    ) {
      expect([t, schema.isDesignedTarget(t)]).toEqual([t, true]);
    }
    for (const t of ["CameraSettings", "Credits", "MultiplayerSettings", "ModuleData"]) {
      expect([t, schema.isDesignedTarget(t)]).toEqual([t, false]);
    }
    // Includes/Ref.xsd has a reference type to BaseAssetType itself: a target by name, but it does not
    // make every asset type one (no subtype expansion through the root types).
    expect(schema.isDesignedTarget("BaseAssetType")).toBe(true);
    const m = result.model!;
    expect(m.assetElements.filter((k) => schema.isDesignedTarget(m.assetElementTypes[k]))).toHaveLength(136);
    expect(m.designedTargets).toHaveLength(149);
  });
});

describe.skipIf(!existsSync(TW))("Tiberium Wars schema set", () => {
  const result = existsSync(TW) ? loadSchema(TW) : null;

  // The first test loads the XSD set: a generous timeout for a busy machine (not a timing assertion).
  test("loads cleanly and is detected as TW", () => {
    expect(result!.diagnostics).toEqual([]);
    expect(result!.files).toHaveLength(553);
    expect(result!.model!.game).toBe("tw");
  }, 60_000);

  test("127 asset kinds (formats.md says 128; AssetDeclaration's choice has 127 elements)", () => {
    const m = result!.model!;
    expect(m.assetElements).toHaveLength(127);
    expect(m.assetElements).toContain("TheaterOfWarTemplate");
    expect(m.assetElements).not.toContain("PlayerTemplate");
  });

  test("counts", () => {
    expect(result!.stats).toEqual({
      namedComplexTypes: 1028,
      namedSimpleTypes: 313,
      inlineComplexTypes: 53,
      inlineSimpleTypes: 1,
      globalElements: 1,
      listTypes: 57,
      enumerationValues: 2791,
      refTypeOn: { simpleType: 45, attribute: 34, element: 11, complexType: 2 },
      directTargets: 68,
    });
  });

  test("same reference facts as RA3 where the games agree", () => {
    const schema = new Schema(result!.model!);
    expect(refOf(schema, "GameObject", "CommandSet")).toEqual(["LogicCommandSetWeakRef", "LogicCommandSet", false]);
    expect(refOf(schema, "ModuleData", "id")).toEqual(["Poid", "ModuleData", true]);
    expect(schema.content("AudioFileRefWithWeight")?.refType).toBe("AudioFile");
  });
});
