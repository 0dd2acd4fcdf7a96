/**
 * The sample mod's hand-written XSD set (examples/sample-mod/Schemas/xsd): exact answers for every
 * construct of domain-spec §14.4.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadSchema } from "../../src/schema/load.ts";
import type { AttributeInfo, ValueInfo } from "../../src/schema/model.ts";
import { isSchemaAttributeName, isSchemaElementNamespace, Schema } from "../../src/schema/schema.ts";

const XSD_DIR = join(import.meta.dirname, "..", "..", "examples", "sample-mod", "Schemas", "xsd");
const loaded = loadSchema(XSD_DIR);
const schema = new Schema(loaded.model!);

/** A ValueInfo with everything "plain"; tests spell out only what differs. */
function value(v: Partial<ValueInfo>): ValueInfo {
  return {
    typeName: null,
    refType: null,
    isRef: false,
    isWeakRef: false,
    isPoid: false,
    isList: false,
    enumValues: [],
    allowsDefine: false,
    isBoolean: false,
    ...v,
  };
}

function attr(name: string, v: Partial<AttributeInfo>): AttributeInfo {
  return { ...value(v), name, required: false, defaultValue: null, ...v };
}

/** Types an element path from a document root, as the indexer does. */
function typeOfPath(...path: string[]): string | null {
  let type = schema.rootElementType(path[0]);
  for (const local of path.slice(1)) type = schema.childElementType(type, local)?.type ?? null;
  return type;
}

describe("loading the fixture set", () => {
  test("reads every file, entry first, with no diagnostics", () => {
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.files.map((f) => f.slice(XSD_DIR.length + 1).replaceAll("\\", "/"))).toEqual([
      "CnC3Types.xsd",
      "Base/AssetBase.xsd",
      // written "includes/Ref.xsd": resolved case-insensitively to the real folder name
      "Includes/Ref.xsd",
      "Includes/Base.xsd",
      "Includes/KindOf.xsd",
      "Modules/BaseModules.xsd",
      "AssetTypeGameObject.xsd",
      "AssetTypeWeapon.xsd",
      "AssetTypeAudio.xsd",
      "AssetTypeW3D.xsd",
      "AssetTypeMisc.xsd",
    ]);
    expect(loaded.model!.fileCount).toBe(11);
    expect(loaded.model!.sourceDir).toBe(XSD_DIR);
  });

  test("counts", () => {
    expect(loaded.stats).toEqual({
      namedComplexTypes: 60,
      namedSimpleTypes: 33,
      inlineComplexTypes: 7,
      inlineSimpleTypes: 1,
      globalElements: 2,
      listTypes: 3,
      enumerationValues: 23,
      refTypeOn: { simpleType: 11, attribute: 5, element: 1, complexType: 2 },
      directTargets: 19,
    });
  });

  test("is a Red Alert 3 schema (it declares an RA3-only kind)", () => {
    expect(loaded.model!.game).toBe("ra3");
  });

  test("asset kinds are AssetDeclaration's children without Tags/Includes/Defines", () => {
    expect(loaded.model!.assetElements).toEqual([
      "GameObject",
      "WeaponTemplate",
      "LocomotorTemplate",
      "ObjectCreationList",
      "LogicCommand",
      "LogicCommandSet",
      "PlayerTemplate",
      "FXList",
      "EvaEvent",
      "AudioFile",
      "AudioEvent",
      "Multisound",
      "W3DMesh",
      "W3DContainer",
      "W3DHierarchy",
      "Road",
      "GameMap",
      "CameraSettings",
      "MultiplayerSettings",
      "UnitAbilityButtonTemplate",
    ]);
    expect(loaded.model!.assetElementTypes.GameObject).toBe("GameObject");
    expect(Object.keys(loaded.model!.assetElementTypes)).toHaveLength(20);
  });
});

describe("type hierarchy and assignability (§6.3)", () => {
  test("chains", () => {
    expect(schema.typeChain("GameObject")).toEqual(["GameObject", "BaseInheritableAsset", "BaseAssetType"]);
    expect(schema.typeChain("gameOBJECT")).toEqual(["GameObject", "BaseInheritableAsset", "BaseAssetType"]);
    expect(schema.typeChain("W3DTruckDrawModuleData")).toEqual([
      "W3DTruckDrawModuleData",
      "W3DScriptedModelDrawModuleData",
      "DrawModuleData",
      "ModuleData",
    ]);
    expect(schema.typeChain("W3DContainer")).toEqual(["W3DContainer", "BaseRenderAssetType", "BaseAssetType"]);
    expect(schema.typeChain("W3DMesh")).toEqual(["W3DMesh", "BaseRenderAssetType", "BaseAssetType"]);
    expect(schema.typeChain("W3DHierarchy")).toEqual(["W3DHierarchy", "BaseAssetType"]);
    expect(schema.typeChain("AudioEvent")).toEqual([
      "AudioEvent",
      "BaseAudioEventInfo",
      "BaseInheritableAsset",
      "BaseAssetType",
    ]);
    expect(schema.typeChain("FXList")).toEqual(["FXList", "BaseAssetType"]);
    expect(schema.typeChain("Percentage")).toEqual(["Percentage", "SageReal", "xs:string"]);
    expect(schema.typeChain("AudioFileRefWithWeight")).toEqual([
      "AudioFileRefWithWeight",
      "AudioFileRef",
      "AssetReference",
      "xs:string",
    ]);
    expect(schema.typeChain("NoSuchType")).toEqual(["NoSuchType"]);
  });

  test("assignability", () => {
    expect(schema.isAssignable("W3DContainer", "BaseRenderAssetType")).toBe(true);
    expect(schema.isAssignable("W3DMesh", "BaseRenderAssetType")).toBe(true);
    expect(schema.isAssignable("W3DHierarchy", "BaseRenderAssetType")).toBe(false);
    expect(schema.isAssignable("WeaponTemplate", "GameObject")).toBe(false);
    expect(schema.isAssignable("AudioEvent", "BaseAudioEventInfo")).toBe(true);
    expect(schema.isAssignable("audioevent", "baseaudioeventinfo")).toBe(true);
    expect(schema.isAssignable("W3DTruckDrawModuleData", "ModuleData")).toBe(true);
    expect(schema.isAssignable("GameObject", null)).toBe(true);
    expect(schema.isAssignable("NoSuchType", "NoSuchType")).toBe(true);
    expect(schema.isAssignable("NoSuchType", "BaseAssetType")).toBe(false);
    expect(schema.isAssignable("GameObject", "NoSuchType")).toBe(false);
  });

  test("asset types are the BaseAssetType descendants", () => {
    expect(schema.isAssetType("GameObject")).toBe(true);
    expect(schema.isAssetType("W3DHierarchy")).toBe(true);
    expect(schema.isAssetType("FXList")).toBe(true);
    expect(schema.isAssetType("BaseAssetType")).toBe(true);
    expect(schema.isAssetType("ModuleData")).toBe(false);
    expect(schema.isAssetType("LocomotorSet")).toBe(false);
    expect(schema.isAssetType("NoSuchType")).toBe(false);
  });

  test("canonical names are case-insensitive; element names are known too", () => {
    expect(schema.canonicalType("gameobject")).toBe("GameObject");
    expect(schema.canonicalType("KINDOFBITFLAGS")).toBe("KindOfBitFlags");
    expect(schema.canonicalType("headlightdraw1")).toBe("HeadlightDraw1");
    expect(schema.canonicalType("nosuchtype")).toBeNull();
  });

  test("BaseAssetType and BaseInheritableAsset", () => {
    const base = loaded.model!.complexTypes.BaseAssetType;
    expect(Object.keys(base.attributes)).toEqual(["id", "typeHashCode", "buildRule"]);
    expect(base.declaresInheritFrom).toBe(false);
    expect(Object.keys(loaded.model!.complexTypes.BaseInheritableAsset.attributes)).toEqual([
      "id",
      "typeHashCode",
      "buildRule",
      "inheritFrom",
    ]);
    expect(loaded.model!.complexTypes.BaseInheritableAsset.declaresInheritFrom).toBe(true);
    expect(loaded.model!.complexTypes.FXList.declaresInheritFrom).toBe(false);
  });
});

describe("attributes", () => {
  test("GameObject@CommandSet → LogicCommandSet through a named weak-ref type", () => {
    expect(schema.attribute("GameObject", "CommandSet")).toEqual(
      attr("CommandSet", {
        typeName: "LogicCommandSetWeakRef",
        refType: "LogicCommandSet",
        isRef: true,
        isWeakRef: true,
        defaultValue: "",
      }),
    );
  });

  test("GameObject@Side → PlayerTemplate (weak ref)", () => {
    expect(schema.attribute("GameObject", "Side")).toEqual(
      attr("Side", { typeName: "PlayerTemplateWeakRef", refType: "PlayerTemplate", isRef: true, isWeakRef: true }),
    );
  });

  test("GameObject@KindOf is a list of enumeration values, not a reference", () => {
    expect(schema.attribute("GameObject", "KindOf")).toEqual(
      attr("KindOf", {
        typeName: "KindOfBitFlags",
        isList: true,
        enumValues: ["SELECTABLE", "CAN_ATTACK", "VEHICLE", "INFANTRY", "STRUCTURE", "INERT"],
      }),
    );
  });

  test("GameObject@id and @inheritFrom come from the base types", () => {
    expect(schema.attribute("GameObject", "id")).toEqual(
      attr("id", { typeName: "InstanceId", required: true, defaultValue: "UnnamedAsset" }),
    );
    expect(schema.attribute("GameObject", "inheritFrom")).toEqual(
      attr("inheritFrom", { typeName: "@inline:BaseInheritableAsset@inheritFrom" }),
    );
    expect(schema.attribute("FXList", "inheritFrom")).toBeNull();
  });

  test("booleans and $DEFINE-capable scalars", () => {
    expect(schema.attribute("GameObject", "IsTrainable")).toEqual(
      attr("IsTrainable", { typeName: "SageBool", isBoolean: true, defaultValue: "true" }),
    );
    expect(schema.attribute("Define", "override")).toEqual(
      attr("override", { typeName: "xs:boolean", isBoolean: true }),
    );
    expect(schema.attribute("GameObject", "BuildCost")).toEqual(
      attr("BuildCost", { typeName: "SageUnsignedInt", allowsDefine: true, defaultValue: "0" }),
    );
    expect(schema.attribute("WeaponTemplate", "AttackRange")?.allowsDefine).toBe(true);
    // through a restriction base
    expect(schema.attribute("BaseAudioEventInfo", "Volume")).toEqual(
      attr("Volume", { typeName: "Percentage", allowsDefine: true, defaultValue: "100" }),
    );
    // through a list item type
    expect(schema.attribute("CreateObjectNugget", "Offset")).toEqual(
      attr("Offset", { typeName: "SageRealList", isList: true, allowsDefine: true }),
    );
    expect(schema.attribute("GameObject", "EditorName")).toEqual(attr("EditorName", { typeName: "xs:string" }));
  });

  test("module ids are Poids with an attribute-level refType, inherited by every module", () => {
    // isRef covers weak references (model.ts); isPoid is what marks the value as object-local
    const id = attr("id", { typeName: "Poid", refType: "ModuleData", isRef: true, isWeakRef: true, isPoid: true });
    expect(schema.attribute("ModuleData", "id")).toEqual(id);
    expect(schema.attribute("W3DTruckDrawModuleData", "id")).toEqual(id);
    expect(schema.attribute("WeaponSetUpdateModuleData", "id")).toEqual(id);
  });

  test("a Poid module reference (SpecialAbilityUpdate@UpdateModuleId)", () => {
    expect(schema.attribute("SpecialAbilityUpdateModuleData", "UpdateModuleId")).toEqual(
      attr("UpdateModuleId", { typeName: "Poid", refType: "ModuleData", isRef: true, isWeakRef: true, isPoid: true }),
    );
  });

  test("RoadObject@id is a reference to a Road", () => {
    expect(schema.attribute("RoadObject", "id")).toEqual(
      attr("id", { typeName: "AssetReference", refType: "Road", isRef: true }),
    );
  });

  test("attribute-level refType on a generic AssetReference", () => {
    expect(schema.attribute("LocomotorSet", "Locomotor")).toEqual(
      attr("Locomotor", { typeName: "AssetReference", refType: "LocomotorTemplate", isRef: true, required: true }),
    );
    expect(schema.attribute("W3DContainer", "Hierarchy")).toEqual(
      attr("Hierarchy", { typeName: "AssetReference", refType: "W3DHierarchy", isRef: true }),
    );
    expect(loaded.model!.simpleTypes.AssetReference).toEqual({
      ...value({ typeName: "AssetReference", isRef: true }),
      name: "AssetReference",
      base: "xs:string",
    });
  });

  test("typed references through named Ref types (annotation prefix bound as ann:)", () => {
    const ref = (
      type: string,
      name: string,
    ) => [schema.attribute(type, name)?.typeName, schema.attribute(type, name)?.refType];
    expect(ref("FireWeaponNugget", "WeaponName")).toEqual(["WeaponRef", "WeaponTemplate"]);
    expect(ref("WeaponTemplate", "FireSound")).toEqual(["AudioEventInfoRef", "BaseAudioEventInfo"]);
    expect(ref("WeaponTemplate", "FireFX")).toEqual(["FXListRef", "FXList"]);
    expect(ref("FireWeaponWhenDeadBehaviorModuleData", "DeathWeapon")).toEqual(["WeaponRef", "WeaponTemplate"]);
    expect(ref("CreateObjectDieModuleData", "CreationList")).toEqual(["ObjectCreationListRef", "ObjectCreationList"]);
    expect(ref("ScriptedModelDrawModel", "Name")).toEqual(["RenderObjectRef", "BaseRenderAssetType"]);
    expect(ref("WeaponSlot_WeaponData", "Template")).toEqual(["WeaponRef", "WeaponTemplate"]);
    expect(ref("EvaEventFXNugget", "EvaEvent")).toEqual(["EvaEventRef", "EvaEvent"]);
  });

  test("enumerations, in declaration order", () => {
    expect(schema.attribute("Include", "type")?.enumValues).toEqual(["reference", "instance", "all"]);
    expect(schema.attribute("DamageNugget", "DamageType")?.enumValues).toEqual(["EXPLOSION", "FLAME", "SNIPER"]);
    expect(schema.attribute("WeaponSlot_WeaponData", "Ordering")?.enumValues).toEqual([
      "PRIMARY_WEAPON",
      "SECONDARY_WEAPON",
    ]);
  });

  test("file paths are not references", () => {
    expect(schema.attribute("AudioFile", "File")).toEqual(attr("File", { typeName: "FileReference", required: true }));
    expect(schema.attribute("Include", "source")).toEqual(attr("source", { typeName: "xs:anyURI", required: true }));
  });

  test("unknown and prefixed attributes", () => {
    expect(schema.attribute("GameObject", "NoSuchAttribute")).toBeNull();
    expect(schema.attribute("GameObject", "xai:joinAction")).toBeNull();
    expect(schema.attribute("NoSuchType", "id")).toBeNull();
  });
});

describe("simple content (§6.9)", () => {
  test("<CreateObject> text inside an OCL's CreateObject is a GameObject weak ref", () => {
    const child = schema.childElementType("CreateObjectNugget", "CreateObject");
    expect(child).toEqual({
      name: "CreateObject",
      type: "GameObjectWeakRef",
      minOccurs: 0,
      maxOccurs: -1,
      refType: null,
      content: value({ typeName: "GameObjectWeakRef", refType: "GameObject", isRef: true, isWeakRef: true }),
    });
    expect(typeOfPath("ObjectCreationList", "CreateObject")).toBe("CreateObjectNugget");
    expect(typeOfPath("ObjectCreationList", "CreateObject", "CreateObject")).toBe("GameObjectWeakRef");
  });

  test("simpleContent AudioFileRefWithWeight: the text references an AudioFile, Weight/Volume are data", () => {
    const content = value({ typeName: "AudioFileRef", refType: "AudioFile", isRef: true });
    expect(schema.content("AudioFileRefWithWeight")).toEqual(content);
    expect(Object.keys(loaded.model!.complexTypes.AudioFileRefWithWeight.attributes)).toEqual(["Weight", "Volume"]);
    expect(schema.childElementType("AudioEvent", "Sound")?.content).toEqual(content);
    expect(typeOfPath("AudioEvent", "Sound")).toBe("AudioFileRefWithWeight");
  });

  test("a complex type's own refType wins over its base's (MultisoundSubsoundRef)", () => {
    expect(schema.content("MultisoundSubsoundRef")).toEqual(
      value({ typeName: "AssetReference", refType: "BaseAudioEventInfo", isRef: true }),
    );
  });

  test("<Cmd> holds a list of LogicCommand references", () => {
    expect(schema.childElementType("LogicCommandSet", "Cmd")?.content).toEqual(
      value({ typeName: "LogicCommandRefList", refType: "LogicCommand", isRef: true, isList: true }),
    );
  });

  test("element-level refType on a generic reference type (<Mesh>)", () => {
    const mesh = schema.childElementType("RenderSubObjectReference", "Mesh");
    expect(mesh?.refType).toBe("W3DMesh");
    expect(mesh?.type).toBe("AssetReference");
    expect(mesh?.content).toEqual(value({ typeName: "AssetReference", refType: "W3DMesh", isRef: true }));
  });

  test("<DisplayName> is a plain string (a string-table key)", () => {
    expect(schema.childElementType("GameObject", "DisplayName")?.content).toEqual(value({ typeName: "xs:string" }));
  });

  test("element-only types have no content", () => {
    expect(schema.content("GameObject")).toBeNull();
    expect(schema.childElementType("GameObject", "Draws")?.content).toBeNull();
    expect(schema.content("xs:float")).toEqual(value({ typeName: "xs:float" }));
    expect(schema.content("NoSuchType")).toBeNull();
  });
});

describe("context-aware element typing (§6.2)", () => {
  test("<Weapon> inside a turret slot vs. elsewhere", () => {
    expect(typeOfPath("GameObject", "Behaviors", "WeaponSetUpdate", "WeaponSlotTurret", "Weapon")).toBe(
      "WeaponSlot_WeaponData",
    );
    expect(typeOfPath("GameObject", "Behaviors", "SlowDeathBehavior", "Weapon")).toBe("WeaponRef");
    expect(loaded.model!.globalElements.Weapon).toBe("WeaponRef");
  });

  test("EvaEvent: the root is the asset, the nested FX nugget keeps its own type", () => {
    expect(schema.rootElementType("EvaEvent")).toBe("EvaEvent");
    expect(typeOfPath("FXList", "Nuggets", "EvaEvent")).toBe("EvaEventFXNugget");
    // first declaration seen (includes expanded in place) is the nugget
    expect(loaded.model!.globalElements.EvaEvent).toBe("EvaEventFXNugget");
    expect(schema.childElementType(null, "EvaEvent")).toEqual({
      name: "EvaEvent",
      type: "EvaEventFXNugget",
      minOccurs: 0,
      maxOccurs: -1,
      refType: null,
      content: null,
      fallback: true,
    });
  });

  test("<V> is a point in <Vertices> and an index in <T>", () => {
    expect(typeOfPath("W3DMesh", "Vertices", "V")).toBe("Vector3");
    expect(typeOfPath("W3DMesh", "Triangles", "T", "V")).toBe("xs:unsignedInt");
    expect(typeOfPath("W3DMesh", "Vertices")).toBe("@inline:W3DMesh/Vertices");
  });

  test("modules and documents", () => {
    expect(typeOfPath("GameObject", "Draws", "TruckDraw")).toBe("W3DTruckDrawModuleData");
    expect(typeOfPath("GameObject", "Draws", "ScriptedModelDraw", "ModelConditionState", "Model")).toBe(
      "ScriptedModelDrawModel",
    );
    expect(typeOfPath("AssetDeclaration")).toBe("@global:AssetDeclaration");
    expect(typeOfPath("AssetDeclaration", "GameObject")).toBe("GameObject");
    expect(typeOfPath("AssetDeclaration", "Includes", "Include")).toBe("Include");
    expect(typeOfPath("HeadlightDraw1", "ScriptedModelDraw")).toBe("W3DScriptedModelDrawModuleData");
    expect(typeOfPath("W3DHierarchy", "Pivot")).toBe("@inline:W3DHierarchy/Pivot");
    expect(Object.keys(loaded.model!.complexTypes["@inline:W3DHierarchy/Pivot"].attributes)).toEqual([
      "Name",
      "Parent",
    ]);
  });

  test("a child the parent does not declare falls back to the global map, flagged", () => {
    expect(schema.childElementType("GameObject", "WeaponSlotTurret")).toEqual({
      name: "WeaponSlotTurret",
      type: "WeaponSlot_Turret",
      minOccurs: 0,
      maxOccurs: -1,
      refType: null,
      content: null,
      fallback: true,
    });
    expect(schema.childElementType("GameObject", "NoSuchElement")).toBeNull();
    expect(schema.rootElementType("NoSuchElement")).toBeNull();
  });

  test("occurrence bounds include those of the enclosing particles", () => {
    const occurs = (parent: string, child: string) => {
      const c = schema.childElementType(parent, child);
      return [c?.minOccurs, c?.maxOccurs];
    };
    expect(occurs("GameObject", "Draws")).toEqual([0, 1]);
    expect(occurs("DrawModules", "ScriptedModelDraw")).toEqual([0, -1]);
    expect(occurs("Triangle", "V")).toEqual([3, 3]);
    expect(occurs("Multisound", "Subsound")).toEqual([1, -1]);
    expect(occurs("@global:AssetDeclaration", "GameObject")).toEqual([0, -1]);
    expect(occurs("RenderSubObjectReference", "Mesh")).toEqual([1, 1]);
  });

  test("foreign elements and prefixed attributes are outside the schema", () => {
    expect(isSchemaElementNamespace("uri:ea.com:eala:asset")).toBe(true);
    expect(isSchemaElementNamespace("")).toBe(true);
    expect(isSchemaElementNamespace("http://www.w3.org/2001/XInclude")).toBe(false);
    for (const q of ["xai:joinAction", "xi:href", "xml:lang", "xsi:type", "xmlns:xi", "xmlns"]) {
      expect([q, isSchemaAttributeName(q)]).toEqual([q, false]);
    }
    expect(isSchemaAttributeName("inheritFrom")).toBe(true);
  });

  test("known element names are case-sensitive, like BAB", () => {
    expect(schema.isKnownElement("GameObject")).toBe(true);
    expect(schema.isKnownElement("Weapon")).toBe(true);
    expect(schema.isKnownElement("HeadlightDraw1")).toBe(true);
    expect(schema.isKnownElement("gameobject")).toBe(false);
    expect(schema.isKnownElement("NoSuchElement")).toBe(false);
  });
});

describe("designed-to-be-referenced types (§9.1)", () => {
  test("the full list", () => {
    expect(loaded.model!.designedTargets).toEqual([
      "AudioEvent", // inheritable (also a BaseAudioEventInfo)
      "AudioFile", // AudioFileRefWithWeight content
      "BaseAudioEventInfo", // FireSound
      "BaseInheritableAsset",
      "BaseRenderAssetType", // Model@Name
      "EvaEvent",
      "FXList", // FireFX, though not inheritable
      "GameObject",
      "LocomotorTemplate", // attribute-level refType
      "LogicCommand",
      "LogicCommandSet",
      "Multisound",
      "ObjectCreationList", // CreationList, not inheritable
      "PlayerTemplate",
      "Road", // RoadObject@id names a Road: a reference, not a definition
      "UnitAbilityButtonTemplate", // only inheritable
      "W3DContainer", // derives from BaseRenderAssetType (subtype expansion)
      "W3DHierarchy", // Hierarchy attribute
      "W3DMesh", // <Mesh> element-level refType
      "WeaponTemplate",
    ]);
  });

  test("settings singletons, map types and Poid-only targets are not", () => {
    for (const t of ["CameraSettings", "MultiplayerSettings", "GameMap", "ModuleData", "BaseAssetType"]) {
      expect(schema.isDesignedTarget(t)).toBe(false);
    }
    expect(schema.isDesignedTarget("gameobject")).toBe(true);
  });
});
