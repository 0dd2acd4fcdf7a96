/**
 * Reference extraction and linking, written from domain-spec §3–§6, §9, §12 and issue 3 (not from the
 * code): for each rule an in-memory fixture and the exact set of reference sites it must produce,
 * including every exclusion. Schemas: the sample mod's own XSD set (the §14.4 constructs) and a tiny
 * fixture XSD (`fixtures/xsd-untyped`) for untyped and Poid content and list attributes.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { resolveConfig } from "../../src/workspace/config.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import type { LinkedIndex, ReferenceSite } from "../../src/index/linked.ts";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { isQueryError } from "../../src/query/envelope.ts";
import { findReferences } from "../../src/query/references.ts";
import { inheritChain, uses } from "../../src/query/uses.ts";
import { diagnosticsOf, doc, includes, memIndex, rel } from "./fixture.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

const REPO = join(import.meta.dirname, "..", "..");
const sample = new Schema(loadSchema(join(REPO, "examples", "sample-mod", "Schemas", "xsd")).model!);
const untyped = new Schema(loadSchema(join(import.meta.dirname, "fixtures", "xsd-untyped")).model!);

/** Every field of a site that the spec says a reference keeps, targets as `Type:Id`. */
interface SiteFacts {
  readonly at: string;
  readonly kind: ReferenceSite["kind"];
  readonly value: string;
  readonly refType: string | null;
  readonly selfType: string | null;
  readonly element: string;
  readonly parent: string | null;
  readonly attribute: string | null;
  readonly status: ReferenceSite["status"];
  readonly to: readonly string[];
  readonly from: string | null;
}

function facts(linked: LinkedIndex, s: ReferenceSite): SiteFacts {
  const from = s.from >= 0 ? linked.assets[s.from] : null;
  return {
    at: `${rel(s.file)}:${s.line}:${s.column}`,
    kind: s.kind,
    value: s.value,
    refType: s.refType,
    selfType: s.selfType,
    element: s.element,
    parent: s.parent,
    attribute: s.attribute,
    status: s.status,
    to: s.targets.map((t) => `${linked.assets[t].type}:${linked.assets[t].id}`),
    from: from ? `${from.type}:${from.id}` : null,
  };
}

/** All sites, in file/line/column order. */
function sitesOf(linked: LinkedIndex): SiteFacts[] {
  return [...linked.sites]
    .sort((a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column || a.from - b.from
    )
    .map((s) => facts(linked, s));
}

/** A site as the spec describes it; omitted fields take the common values of an attribute reference. */
function site(f: Partial<SiteFacts> & Pick<SiteFacts, "at" | "value" | "element" | "from">): SiteFacts {
  return {
    at: f.at,
    kind: f.kind ?? "attribute",
    value: f.value,
    refType: f.refType ?? null,
    selfType: f.selfType ?? null,
    element: f.element,
    parent: f.parent ?? null,
    attribute: f.attribute ?? null,
    status: f.status ?? "resolved",
    to: f.to ?? [],
    from: f.from,
  };
}

const mod = (body: string) => ({ "Data/Mod.xml": doc(body) });

describe("§6.4 attribute references", () => {
  const body = [
    `<GameObject id="Tank" CommandSet="TankCmds" Side="Allies" KindOf="SELECTABLE VEHICLE" EditorName="TankCmds" BuildCost="100">`,
    `<LocomotorSet Locomotor="TankLoco" Condition="NORMAL" Speed="12" />`,
    `<Draws><ScriptedModelDraw id="ModuleTag_Draw"><ModelConditionState ParseCondStateType="PARSE_DEFAULT"><Model Name="Tank_SKN" /></ModelConditionState></ScriptedModelDraw></Draws>`,
    `</GameObject>`,
    `<LogicCommandSet id="TankCmds" />`,
    `<PlayerTemplate id="Allies" />`,
    `<LocomotorTemplate id="TankLoco" />`,
    `<W3DHierarchy id="Tank_SKN" />`,
    `<W3DContainer id="Tank_SKN" />`,
    `<LogicCommand id="VEHICLE" Type="STOP" />`,
    `<WeaponTemplate id="Gun"><Nuggets><DamageNugget Damage="10" DamageType="SNIPER" /><FireWeaponNugget WeaponName="Splash" /></Nuggets></WeaponTemplate>`,
    `<WeaponTemplate id="Splash" />`,
    `<WeaponTemplate id="SNIPER" />`,
  ].join("\n");

  test("typed attributes are references (type-level and attribute-level refTypes); ids, enums, lists of enums, scalars and plain strings are not", () => {
    const { linked } = memIndex(mod(body), sample);
    expect(sitesOf(linked)).toEqual([
      site({
        at: "Data/Mod.xml:3:35",
        value: "TankCmds",
        refType: "LogicCommandSet",
        element: "GameObject",
        parent: "AssetDeclaration",
        attribute: "CommandSet",
        to: ["LogicCommandSet:TankCmds"],
        from: "GameObject:Tank",
      }),
      site({
        at: "Data/Mod.xml:3:51",
        value: "Allies",
        refType: "PlayerTemplate",
        element: "GameObject",
        parent: "AssetDeclaration",
        attribute: "Side",
        to: ["PlayerTemplate:Allies"],
        from: "GameObject:Tank",
      }),
      // LocomotorSet@Locomotor is typed AssetReference; its target type is declared on the attribute itself.
      site({
        at: "Data/Mod.xml:4:26",
        value: "TankLoco",
        refType: "LocomotorTemplate",
        element: "LocomotorSet",
        parent: "GameObject",
        attribute: "Locomotor",
        to: ["LocomotorTemplate:TankLoco"],
        from: "GameObject:Tank",
      }),
      // Model@Name → BaseRenderAssetType: the W3DContainer matches, the same-id W3DHierarchy (not a render asset) does not.
      site({
        at: "Data/Mod.xml:5:116",
        value: "Tank_SKN",
        refType: "BaseRenderAssetType",
        element: "Model",
        parent: "ModelConditionState",
        attribute: "Name",
        to: ["W3DContainer:Tank_SKN"],
        from: "GameObject:Tank",
      }),
      site({
        at: "Data/Mod.xml:13:113",
        value: "Splash",
        refType: "WeaponTemplate",
        element: "FireWeaponNugget",
        parent: "Nuggets",
        attribute: "WeaponName",
        to: ["WeaponTemplate:Splash"],
        from: "WeaponTemplate:Gun",
      }),
    ]);
  });
});

describe("§6.5 inheritFrom, filtered by the element's own type", () => {
  const body = [
    `<GameObject id="SharedThing" />`,
    `<WeaponTemplate id="SharedThing" />`,
    `<GameObject id="Child" inheritFrom="SharedThing" />`,
    `<WeaponTemplate id="ChildWeapon" inheritFrom="SharedThing" />`,
    `<GameObject id="Orphan" inheritFrom="OnlyAWeapon" />`,
    `<WeaponTemplate id="OnlyAWeapon" />`,
    `<GameObject id="Lost" inheritFrom="Nowhere" />`,
    `<FXList id="BaseFX" />`,
    `<FXList id="DerivedFX" inheritFrom="BaseFX" />`,
    `<AudioEvent id="BaseSound" />`,
    `<Multisound id="Multi"><Subsound>BaseSound</Subsound></Multisound>`,
    `<AudioEvent id="Shot" inheritFrom="AudioEvent:BaseSound" />`,
    `<AudioEvent id="Shot2" inheritFrom="Multi" />`,
  ].join("\n");
  const inherit = (
    at: string,
    value: string,
    selfType: string,
    from: string,
    status: ReferenceSite["status"],
    to: string[] = [],
  ) =>
    site({
      at,
      kind: "inheritFrom",
      value,
      selfType,
      element: selfType,
      parent: "AssetDeclaration",
      attribute: "inheritFrom",
      status,
      to,
      from,
    });

  test("a GameObject inherits only from GameObjects, a weapon only from weapons; inheritFrom on non-inheritable FXList still counts", () => {
    const { linked } = memIndex(mod(body), sample);
    expect(sitesOf(linked)).toEqual([
      inherit("Data/Mod.xml:5:37", "SharedThing", "GameObject", "GameObject:Child", "resolved", [
        "GameObject:SharedThing",
      ]),
      inherit("Data/Mod.xml:6:47", "SharedThing", "WeaponTemplate", "WeaponTemplate:ChildWeapon", "resolved", [
        "WeaponTemplate:SharedThing",
      ]),
      inherit("Data/Mod.xml:7:38", "OnlyAWeapon", "GameObject", "GameObject:Orphan", "wrong_type"),
      inherit("Data/Mod.xml:9:36", "Nowhere", "GameObject", "GameObject:Lost", "not_found"),
      inherit("Data/Mod.xml:11:37", "BaseFX", "FXList", "FXList:DerivedFX", "resolved", ["FXList:BaseFX"]),
      site({
        at: "Data/Mod.xml:13:34",
        kind: "content",
        value: "BaseSound",
        refType: "BaseAudioEventInfo",
        element: "Subsound",
        parent: "Multisound",
        to: ["AudioEvent:BaseSound"],
        from: "Multisound:Multi",
      }),
      inherit("Data/Mod.xml:14:36", "AudioEvent:BaseSound", "AudioEvent", "AudioEvent:Shot", "resolved", [
        "AudioEvent:BaseSound",
      ]),
      // A Multisound is an audio event info but not an AudioEvent: the element's own type filters.
      inherit("Data/Mod.xml:15:37", "Multi", "AudioEvent", "AudioEvent:Shot2", "wrong_type"),
    ]);
  });

  test("the asset record keeps the raw inheritFrom value", () => {
    const { linked } = memIndex(mod(body), sample);
    expect(linked.assets.filter((a) => a.inheritFrom).map((a) => `${a.id}<${a.inheritFrom}`)).toEqual([
      "Child<SharedThing",
      "ChildWeapon<SharedThing",
      "Orphan<OnlyAWeapon",
      "Lost<Nowhere",
      "DerivedFX<BaseFX",
      "Shot<AudioEvent:BaseSound",
      "Shot2<Multi",
    ]);
  });
});

describe("§6.6 Type:Id values: normalised to the last segment, still filtered by the schema type", () => {
  const body = [
    `<GameObject id="Tank" Side="PlayerTemplate:Allies" CommandSet="GameObject:Tank" />`,
    `<PlayerTemplate id="Allies" />`,
    `<GameObject id="SharedThing" />`,
    `<WeaponTemplate id="SharedThing" />`,
    `<WeaponTemplate id="Gun" FireSound="AudioEvent:" ><Nuggets><FireWeaponNugget WeaponName="GameObject:SharedThing" /></Nuggets></WeaponTemplate>`,
    `<GameObject id="Child" inheritFrom="WeaponTemplate:SharedThing" />`,
    `<ObjectCreationList id="OCL"><CreateObject><CreateObject>WeaponTemplate:SharedThing</CreateObject></CreateObject></ObjectCreationList>`,
  ].join("\n");

  test("attributes, inheritFrom and content; a wrong prefix neither helps a mismatching definition pass nor hides a matching one", () => {
    const { linked } = memIndex(mod(body), sample);
    expect(sitesOf(linked)).toEqual([
      site({
        at: "Data/Mod.xml:3:29",
        value: "PlayerTemplate:Allies",
        refType: "PlayerTemplate",
        element: "GameObject",
        parent: "AssetDeclaration",
        attribute: "Side",
        to: ["PlayerTemplate:Allies"],
        from: "GameObject:Tank",
      }),
      // "GameObject:Tank" names a GameObject, but CommandSet wants a LogicCommandSet.
      site({
        at: "Data/Mod.xml:3:64",
        value: "GameObject:Tank",
        refType: "LogicCommandSet",
        element: "GameObject",
        parent: "AssetDeclaration",
        attribute: "CommandSet",
        status: "wrong_type",
        from: "GameObject:Tank",
      }),
      // Empty last segment (typing in progress): the whole value is looked up, so nothing matches.
      site({
        at: "Data/Mod.xml:7:37",
        value: "AudioEvent:",
        refType: "BaseAudioEventInfo",
        element: "WeaponTemplate",
        parent: "AssetDeclaration",
        attribute: "FireSound",
        status: "not_found",
        from: "WeaponTemplate:Gun",
      }),
      site({
        at: "Data/Mod.xml:7:90",
        value: "GameObject:SharedThing",
        refType: "WeaponTemplate",
        element: "FireWeaponNugget",
        parent: "Nuggets",
        attribute: "WeaponName",
        to: ["WeaponTemplate:SharedThing"],
        from: "WeaponTemplate:Gun",
      }),
      site({
        at: "Data/Mod.xml:8:37",
        kind: "inheritFrom",
        value: "WeaponTemplate:SharedThing",
        selfType: "GameObject",
        element: "GameObject",
        parent: "AssetDeclaration",
        attribute: "inheritFrom",
        to: ["GameObject:SharedThing"],
        from: "GameObject:Child",
      }),
      site({
        at: "Data/Mod.xml:9:58",
        kind: "content",
        value: "WeaponTemplate:SharedThing",
        refType: "GameObject",
        element: "CreateObject",
        parent: "CreateObject",
        to: ["GameObject:SharedThing"],
        from: "ObjectCreationList:OCL",
      }),
    ]);
  });

  test("the id looked up is the last segment; the raw value is kept", () => {
    const { linked } = memIndex(mod(body), sample);
    expect(linked.sites.map((s) => `${s.value} → ${s.id}`)).toEqual([
      "PlayerTemplate:Allies → Allies",
      "GameObject:Tank → Tank",
      "AudioEvent: → AudioEvent:",
      "GameObject:SharedThing → SharedThing",
      "WeaponTemplate:SharedThing → SharedThing",
      "WeaponTemplate:SharedThing → SharedThing",
    ]);
  });
});

describe("§6.7 exclusions", () => {
  const body = [
    `<GameObject id="Tank" KindOf="SELECTABLE VEHICLE">`,
    `<Draws><ScriptedModelDraw id="ModuleTag_Draw" /><xi:include href="Frag.xml" xpointer="xmlns(n=uri:ea.com:eala:asset) xpointer(/n:Spliced/child::*)" /></Draws>`,
    `<Behaviors><SpecialAbilityUpdate id="ModuleTag_Toggle" UpdateModuleId="ModuleTag_Spliced" /><SpecialAbilityUpdate id="ModuleTag_Toggle2" UpdateModuleId="ModuleTag_Draw" />`,
    `<CreateObjectDie id="ModuleTag_Die" CreationList="$DEATH_OCL" /><FireWeaponWhenDead id="ModuleTag_FW" DeathWeapon="=$DEATH_WEAPON" />`,
    `<SlowDeathBehavior id="ModuleTag_SD"><Weapon>$DEATH_WEAPON</Weapon><Weapon>=$DEATH_WEAPON</Weapon></SlowDeathBehavior></Behaviors>`,
    `</GameObject>`,
    `<GameMap id="Map1"><Road id="MainRoad" /></GameMap>`,
    `<Road id="MainRoad" />`,
    `<LogicCommand id="VEHICLE" Type="STOP" />`,
    `<LogicCommand id="STOP" Type="STOP" />`,
    `<LogicCommand id="ModuleTag_Draw" Type="STOP" />`,
    `<LogicCommand id="ModuleTag_Spliced" Type="STOP" />`,
    `<ObjectCreationList id="Frag.xml" />`,
    `<Defines><Define name="DEATH_OCL" value="OCL" /><Define name="DEATH_WEAPON" value="Gun" /></Defines>`,
  ].join("\n");
  const files = {
    "Data/Mod.xml": doc(body, ` xmlns:xi="http://www.w3.org/2001/XInclude"`),
    "Data/Frag.xml":
      `<Spliced xmlns="uri:ea.com:eala:asset">\n<ScriptedModelDraw id="ModuleTag_Spliced" />\n</Spliced>\n`,
    // A usable SDK, so that anything unresolved would be reported one by one.
    "sdk:Schemas/xsd/CnC3Types.xsd": "",
  };

  test("own ids, module ids, Poid attributes (even naming a global asset or a spliced module), enum tokens, $DEFINE and =expression values, xi:include href/xpointer: none is a reference; RoadObject@id is", () => {
    const { linked } = memIndex(files, sample);
    expect(sitesOf(linked)).toEqual([
      site({
        at: "Data/Mod.xml:9:30",
        value: "MainRoad",
        refType: "Road",
        element: "Road",
        parent: "GameMap",
        attribute: "id",
        to: ["Road:MainRoad"],
        from: "GameMap:Map1",
      }),
    ]);
  });

  test("nothing excluded is reported as unresolved, even with an SDK to check against", () => {
    const { linked } = memIndex(files, sample);
    expect(diagnosticsOf(linked)).toEqual([]);
  });

  test("Poid attributes are kept as pipeline-local records of the enclosing asset; module ids as local ids", () => {
    const { core } = memIndex(files, sample);
    const rec = core.file("/mods/Test Mod/Data/Mod.xml")!.record;
    expect(rec.poidRefs.map((p) => `${p.owner} ${p.element}@${p.attribute}=${p.value} ${p.line}:${p.column}`)).toEqual([
      "0 SpecialAbilityUpdate@UpdateModuleId=ModuleTag_Spliced 5:72",
      "0 SpecialAbilityUpdate@UpdateModuleId=ModuleTag_Draw 5:154",
    ]);
    expect(rec.localIds.map((l) => `${l.owner} ${l.element}=${l.id}`)).toEqual([
      "0 ScriptedModelDraw=ModuleTag_Draw",
      "0 SpecialAbilityUpdate=ModuleTag_Toggle",
      "0 SpecialAbilityUpdate=ModuleTag_Toggle2",
      "0 CreateObjectDie=ModuleTag_Die",
      "0 FireWeaponWhenDead=ModuleTag_FW",
      "0 SlowDeathBehavior=ModuleTag_SD",
    ]);
    expect(rec.defineUses.map((u) => `${u.name} ${u.line}:${u.column}`)).toEqual([
      "DEATH_OCL 6:51",
      "DEATH_WEAPON 6:117",
      "DEATH_WEAPON 7:46",
      "DEATH_WEAPON 7:77",
    ]);
  });

  // Issue 3: "Poid module references resolved within the enclosing object including modules spliced by xi:include".
  test("a Poid reference resolves to the module of its own object, including a module spliced in by xi:include", async () => {
    const { linked } = await sampleIndex();
    expect(
      linked.poidSites.map((p) => ({
        ...p,
        from: linked.assets[p.from].id,
        file: p.file.slice(SAMPLE.length + 1),
        target: p.target && { ...p.target, file: p.target.file.slice(SAMPLE.length + 1) },
      })),
    ).toEqual([
      {
        from: "AlliedAthenaCannon",
        value: "ModuleTag_Headlight",
        element: "SpecialAbilityUpdate",
        attribute: "UpdateModuleId",
        file: "Data/Includes/Allied Units/AthenaCannon.xml",
        line: 38,
        column: 21,
        target: { element: "ScriptedModelDraw", file: "Data/Includes/Fragments/Headlights.xml", line: 4 },
      },
    ]);
    // Never a global reference: no site names the module id.
    expect(linked.sites.some((s) => s.value === "ModuleTag_Headlight")).toBe(false);
  });
});

describe("§6.9 simple-content references", () => {
  const body = [
    `<ObjectCreationList id="OCL">`,
    `<CreateObject Offset="0 0 0" Count="1">`,
    `<CreateObject>Helper</CreateObject>`,
    `<CreateObject>`,
    `   Helper2  `,
    `</CreateObject>`,
    `<CreateObject />`,
    `<CreateObject></CreateObject>`,
    `<CreateObject>   </CreateObject>`,
    `<CreateObject>$HELPER</CreateObject>`,
    `</CreateObject>`,
    `</ObjectCreationList>`,
    `<GameObject id="Helper"><DisplayName>Name:Helper</DisplayName></GameObject>`,
    `<GameObject id="Helper2" />`,
    `<AudioFile id="BoomFile" File="AUDIO:BoomFile.wav" />`,
    `<AudioEvent id="Boom"><Sound Weight="2" Volume="50">BoomFile</Sound></AudioEvent>`,
    `<Multisound id="Multi"><Subsound Weight="5">Boom</Subsound></Multisound>`,
    `<FXList id="FX"><Nuggets><Sound Value="Boom" /><EvaEvent EvaEvent="Eva1" /></Nuggets></FXList>`,
    `<EvaEvent id="Eva1" />`,
    `<W3DContainer id="Box"><SubObject SubObjectID="M" BoneIndex="0"><RenderObject><Mesh>Box.MESH</Mesh></RenderObject></SubObject></W3DContainer>`,
    `<W3DMesh id="Box.MESH" GeometryType="Normal" />`,
    `<GameObject id="Wreck"><Behaviors><SlowDeathBehavior id="SD"><Weapon>Gun</Weapon></SlowDeathBehavior>`,
    `<WeaponSetUpdate id="WSU"><WeaponSlotTurret ID="1"><Weapon Ordering="PRIMARY_WEAPON" Template="Gun" /></WeaponSlotTurret></WeaponSetUpdate></Behaviors></GameObject>`,
    `<WeaponTemplate id="Gun" />`,
    `<Defines><Define name="HELPER" value="Helper" /></Defines>`,
  ].join("\n");

  test("typed simple content (simple types, simpleContent types, element-level refTypes), trimmed, at the trimmed value; the same element name typed by its parent", () => {
    const { linked } = memIndex(mod(body), sample);
    const content = (
      at: string,
      value: string,
      refType: string,
      element: string,
      parent: string,
      from: string,
      to: string[],
    ) => site({ at, kind: "content", value, refType, element, parent, to, from });
    expect(sitesOf(linked)).toEqual([
      // <CreateObject> holding text is GameObjectWeakRef (inside the nugget <CreateObject>, itself not a reference).
      content("Data/Mod.xml:5:15", "Helper", "GameObject", "CreateObject", "CreateObject", "ObjectCreationList:OCL", [
        "GameObject:Helper",
      ]),
      content("Data/Mod.xml:7:4", "Helper2", "GameObject", "CreateObject", "CreateObject", "ObjectCreationList:OCL", [
        "GameObject:Helper2",
      ]),
      // simpleContent AudioFileRefWithWeight: the text is the reference, Weight/Volume are data.
      content("Data/Mod.xml:18:53", "BoomFile", "AudioFile", "Sound", "AudioEvent", "AudioEvent:Boom", [
        "AudioFile:BoomFile",
      ]),
      // simpleContent MultisoundSubsoundRef: the complex type's own refType.
      content("Data/Mod.xml:19:45", "Boom", "BaseAudioEventInfo", "Subsound", "Multisound", "Multisound:Multi", [
        "AudioEvent:Boom",
      ]),
      // Inside FX nuggets <Sound> and <EvaEvent> are nuggets with reference attributes, not content.
      site({
        at: "Data/Mod.xml:20:40",
        value: "Boom",
        refType: "BaseAudioEventInfo",
        element: "Sound",
        parent: "Nuggets",
        attribute: "Value",
        to: ["AudioEvent:Boom"],
        from: "FXList:FX",
      }),
      site({
        at: "Data/Mod.xml:20:68",
        value: "Eva1",
        refType: "EvaEvent",
        element: "EvaEvent",
        parent: "Nuggets",
        attribute: "EvaEvent",
        to: ["EvaEvent:Eva1"],
        from: "FXList:FX",
      }),
      // Element-level refType on a generic AssetReference element.
      content("Data/Mod.xml:22:85", "Box.MESH", "W3DMesh", "Mesh", "RenderObject", "W3DContainer:Box", [
        "W3DMesh:Box.MESH",
      ]),
      // <Weapon> is WeaponRef text in SlowDeathBehavior, a slot with a Template attribute in WeaponSlotTurret.
      content("Data/Mod.xml:24:70", "Gun", "WeaponTemplate", "Weapon", "SlowDeathBehavior", "GameObject:Wreck", [
        "WeaponTemplate:Gun",
      ]),
      site({
        at: "Data/Mod.xml:25:96",
        value: "Gun",
        refType: "WeaponTemplate",
        element: "Weapon",
        parent: "WeaponSlotTurret",
        attribute: "Template",
        to: ["WeaponTemplate:Gun"],
        from: "GameObject:Wreck",
      }),
    ]);
  });
});

describe("list references: one site per token, at the token", () => {
  test("a list-typed content reference, on one line and across lines with tabs, qualified tokens included", () => {
    const body = [
      `<LogicCommandSet id="Set1"><Cmd>Cmd_A Cmd_B</Cmd></LogicCommandSet>`,
      `<LogicCommandSet id="Set2">`,
      `<Cmd>  Cmd_A`,
      `\t\tLogicCommand:Cmd_B   Cmd_Missing </Cmd>`,
      `</LogicCommandSet>`,
      `<LogicCommand id="Cmd_A" Type="STOP" />`,
      `<LogicCommand id="Cmd_B" Type="SELL" />`,
    ].join("\n");
    const { linked } = memIndex(mod(body), sample);
    const cmd = (at: string, value: string, from: string, to: string[], status: ReferenceSite["status"] = "resolved") =>
      site({
        at,
        kind: "content",
        value,
        refType: "LogicCommand",
        element: "Cmd",
        parent: "LogicCommandSet",
        status,
        to,
        from,
      });
    expect(sitesOf(linked)).toEqual([
      cmd("Data/Mod.xml:3:33", "Cmd_A", "LogicCommandSet:Set1", ["LogicCommand:Cmd_A"]),
      cmd("Data/Mod.xml:3:39", "Cmd_B", "LogicCommandSet:Set1", ["LogicCommand:Cmd_B"]),
      cmd("Data/Mod.xml:5:8", "Cmd_A", "LogicCommandSet:Set2", ["LogicCommand:Cmd_A"]),
      cmd("Data/Mod.xml:6:3", "LogicCommand:Cmd_B", "LogicCommandSet:Set2", ["LogicCommand:Cmd_B"]),
      cmd("Data/Mod.xml:6:24", "Cmd_Missing", "LogicCommandSet:Set2", [], "not_found"),
    ]);
  });

  // Rule: list values split per token with exact offsets (issue 3). Fails: extract-xml.ts emitContent falls back to
  // the text start for every token when the raw text differs from the parsed text (CRLF normalised to LF).
  test("CRLF line ends inside a list content do not move its tokens to the start of the text", () => {
    const text =
      `\uFEFF<?xml version="1.0" encoding="utf-8"?>\r\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\r\n<LogicCommandSet id="Set">\r\n<Cmd>\r\n Cmd_A\r\n\tCmd_B</Cmd>\r\n</LogicCommandSet>\r\n<LogicCommand id="Cmd_A" Type="STOP" />\r\n<LogicCommand id="Cmd_B" Type="STOP" />\r\n</AssetDeclaration>\r\n`;
    const { linked } = memIndex({ "Data/Mod.xml": text }, sample);
    expect(linked.sites.map((s) => `${s.value} ${s.line}:${s.column} ${s.status}`)).toEqual([
      "Cmd_A 5:2 resolved",
      "Cmd_B 6:2 resolved",
    ]);
  });
});

describe("untyped references, untyped and Poid content, list attributes (fixture XSD)", () => {
  const body = [
    `<Thing id="T1" Anything="Widget1" Parts="G1  G2 Ghost" AttachModuleId="G1">`,
    `<IncludeThing>G1</IncludeThing>`,
    `<Value>Widget1</Value>`,
    `<PartOf>G1</PartOf>`,
    `<Uses>G2</Uses>`,
    `</Thing>`,
    `<Thing id="T2" Anything="G2" />`,
    `<Gadget id="G1" />`,
    `<Gadget id="G2" />`,
    `<Widget id="Widget1" />`,
    `<Widget id="G2" />`,
  ].join("\n");

  test("an untyped isRef attribute matches any type; untyped (AssetReference/WeakReference) and Poid content are not references; a list attribute splits per token", () => {
    const { linked } = memIndex(mod(body), untyped);
    const thing = (
      at: string,
      value: string,
      attribute: string,
      refType: string | null,
      from: string,
      to: string[],
      status: ReferenceSite["status"] = "resolved",
    ) => site({ at, value, refType, element: "Thing", parent: "AssetDeclaration", attribute, status, to, from });
    expect(sitesOf(linked)).toEqual([
      thing("Data/Mod.xml:3:26", "Widget1", "Anything", null, "Thing:T1", ["Widget:Widget1"]),
      thing("Data/Mod.xml:3:42", "G1", "Parts", "Gadget", "Thing:T1", ["Gadget:G1"]),
      thing("Data/Mod.xml:3:46", "G2", "Parts", "Gadget", "Thing:T1", ["Gadget:G2"]),
      thing("Data/Mod.xml:3:49", "Ghost", "Parts", "Gadget", "Thing:T1", [], "not_found"),
      site({
        at: "Data/Mod.xml:7:7",
        kind: "content",
        value: "G2",
        refType: "Gadget",
        element: "Uses",
        parent: "Thing",
        to: ["Gadget:G2"],
        from: "Thing:T1",
      }),
      thing("Data/Mod.xml:9:26", "G2", "Anything", null, "Thing:T2", ["Gadget:G2", "Widget:G2"]),
    ]);
  });

  // Rule: list values split per token with exact offsets. Fails: extract-xml.ts handleAttributes uses the value
  // start for every token when the raw attribute text differs from the normalised value (tab/newline → space).
  test("a tab or a line break between the tokens of a list attribute keeps each token's own position", () => {
    const { linked } = memIndex(
      mod(`<Thing id="T1" Parts="G1\tG2\n  Ghost" />\n<Gadget id="G1" />\n<Gadget id="G2" />`),
      untyped,
    );
    expect(linked.sites.map((s) => `${s.value} ${s.line}:${s.column} ${s.status}`)).toEqual([
      "G1 3:23 resolved",
      "G2 3:26 resolved",
      "Ghost 4:3 not_found",
    ]);
  });
});

// Rule: a list splits at the whitespace of JavaScript's \s, as the /\S+/ split it replaced did (the Unicode
// spaces too), and a single value is trimmed the same way. Fails if extract-xml.ts eachToken splits only at
// XML's four whitespace characters.
test("list attributes split at Unicode spaces too (NBSP, ideographic space), each token at its own offset", () => {
  const { linked } = memIndex(
    mod(`<Thing id="T1" Parts="\u00a0G1\u3000G2\u2028Ghost\ufeff" />\n<Gadget id="G1" />\n<Gadget id="G2" />`),
    untyped,
  );
  expect(linked.sites.map((s) => `${s.value} ${s.line}:${s.column} ${s.status}`)).toEqual([
    "G1 3:24 resolved",
    "G2 3:27 resolved",
    "Ghost 3:30 not_found",
  ]);
});

describe("sites inside fragments spliced by xi:include belong to the splicing asset", () => {
  const xp = (name: string) => `xmlns(n=uri:ea.com:eala:asset) xpointer(/n:${name}/child::*)`;
  const files = {
    "Data/Mod.xml": doc(
      [
        `<GameObject id="Tank">`,
        `<Draws><xi:include href="Frags/Lights.xml" xpointer="${xp("Lights")}" /></Draws>`,
        `<Behaviors><xi:include href="Frags/Die.xml" /></Behaviors>`,
        `</GameObject>`,
        `<GameObject id="Jeep"><Draws><xi:include href="Frags/Lights.xml" xpointer="${
          xp("Lights")
        }" /></Draws></GameObject>`,
        `<W3DContainer id="Light_SKN" />`,
        `<ObjectCreationList id="OCL_Wreck" />`,
        `<xi:include href="Frags/Weapons.xml" xpointer="${xp("WeaponList")}" />`,
      ].join("\n"),
      ` xmlns:xi="http://www.w3.org/2001/XInclude"`,
    ),
    "Data/Frags/Lights.xml": [
      `<Lights xmlns="uri:ea.com:eala:asset">`,
      `<ScriptedModelDraw id="ModuleTag_Light"><ModelConditionState><Model Name="Light_SKN" /></ModelConditionState></ScriptedModelDraw>`,
      `</Lights>`,
    ].join("\n"),
    // Without xpointer the fragment's root element itself is spliced (a whole module).
    "Data/Frags/Die.xml":
      `<CreateObjectDie xmlns="uri:ea.com:eala:asset" id="ModuleTag_Die" CreationList="OCL_Wreck" />`,
    "Data/Frags/Weapons.xml": [
      `<WeaponList xmlns="uri:ea.com:eala:asset">`,
      `<WeaponTemplate id="Cannon"><Nuggets><FireWeaponNugget WeaponName="Splash" /></Nuggets></WeaponTemplate>`,
      `<WeaponTemplate id="Splash" />`,
      `</WeaponList>`,
    ].join("\n"),
  };
  const nested = (linked: LinkedIndex) => linked.sites.filter((s) => rel(s.file) !== "Data/Frags/Weapons.xml");

  test("with and without xpointer; the same fragment spliced into two objects gives one site per object, in the fragment file", () => {
    const { linked } = memIndex(files, sample);
    const model = (from: string) =>
      site({
        at: "Data/Frags/Lights.xml:2:75",
        value: "Light_SKN",
        refType: "BaseRenderAssetType",
        element: "Model",
        parent: "ModelConditionState",
        attribute: "Name",
        to: ["W3DContainer:Light_SKN"],
        from,
      });
    expect(nested(linked).map((s) => facts(linked, s)).sort((a, b) => (a.at + a.from < b.at + b.from ? -1 : 1)))
      .toEqual([
        site({
          at: "Data/Frags/Die.xml:1:81",
          value: "OCL_Wreck",
          refType: "ObjectCreationList",
          element: "CreateObjectDie",
          // The spliced root is a child of the element the xi:include sits in.
          parent: "Behaviors",
          attribute: "CreationList",
          to: ["ObjectCreationList:OCL_Wreck"],
          from: "GameObject:Tank",
        }),
        model("GameObject:Jeep"),
        model("GameObject:Tank"),
      ]);
    expect(nested(linked).map((s) => s.via).sort()).toEqual(["Frags/Die.xml", "Frags/Lights.xml", "Frags/Lights.xml"]);
  });

  test("the splicing asset's forward and reverse indexes include the fragment's sites", () => {
    const { linked } = memIndex(files, sample);
    const [tank] = linked.findAssets("Tank");
    const [wreck] = linked.findAssets("OCL_Wreck");
    expect((linked.referencesFrom.get(tank.index) ?? []).map((i) => linked.sites[i].value).sort()).toEqual([
      "Light_SKN",
      "OCL_Wreck",
    ]);
    expect((linked.referencedBy.get(wreck.index) ?? []).map((i) => linked.assets[linked.sites[i].from].id)).toEqual([
      "Tank",
    ]);
  });

  test("children of a root-level xi:include container are assets of the fragment file", () => {
    const { linked } = memIndex(files, sample);
    expect(
      linked.assets.filter((a) => a.type === "WeaponTemplate").map((a) => `${a.type}:${a.id}@${rel(a.file)}:${a.line}`),
    ).toEqual([
      "WeaponTemplate:Cannon@Data/Frags/Weapons.xml:2",
      "WeaponTemplate:Splash@Data/Frags/Weapons.xml:3",
    ]);
  });

  // Rule: a site belongs to the asset it is written in (§4.2 root-level xi:include children are assets; the
  // forward index is per asset). Fails: link.ts attributes sites of a root-level xi:include container to no asset
  // (from = -1, "fragments spliced nowhere"), so `uses Cannon` misses its FireWeaponNugget.
  test("a reference written inside an asset of a root-level xi:include container belongs to that asset", () => {
    const { linked } = memIndex(files, sample);
    expect(linked.sites.filter((s) => rel(s.file) === "Data/Frags/Weapons.xml").map((s) => facts(linked, s))).toEqual([
      site({
        at: "Data/Frags/Weapons.xml:2:68",
        value: "Splash",
        refType: "WeaponTemplate",
        element: "FireWeaponNugget",
        parent: "Nuggets",
        attribute: "WeaponName",
        to: ["WeaponTemplate:Splash"],
        from: "WeaponTemplate:Cannon",
      }),
    ]);
  });
});

describe("same id on two types never cross-resolves; the reverse index is keyed by type", () => {
  const body = [
    `<GameObject id="SharedThing" />`,
    `<WeaponTemplate id="SharedThing" />`,
    `<WeaponTemplate id="Gun"><Nuggets><FireWeaponNugget WeaponName="SharedThing" /></Nuggets></WeaponTemplate>`,
    `<ObjectCreationList id="OCL"><CreateObject><CreateObject>SharedThing</CreateObject></CreateObject></ObjectCreationList>`,
  ].join("\n");

  test('WeaponName="SharedThing" → only the WeaponTemplate; <CreateObject>SharedThing → only the GameObject', () => {
    const { linked } = memIndex(mod(body), sample);
    expect(sitesOf(linked).map((s) => `${s.from} ${s.element} → ${s.to.join(",")}`)).toEqual([
      "WeaponTemplate:Gun FireWeaponNugget → WeaponTemplate:SharedThing",
      "ObjectCreationList:OCL CreateObject → GameObject:SharedThing",
    ]);
  });

  test("referencedBy of each definition holds only its own type's sites", () => {
    const { linked } = memIndex(mod(body), sample);
    const by = (type: string) => {
      const [a] = linked.findAssets("SharedThing", type);
      return (linked.referencedBy.get(a.index) ?? []).map((i) => linked.assets[linked.sites[i].from].id);
    };
    expect([by("GameObject"), by("WeaponTemplate")]).toEqual([["OCL"], ["Gun"]]);
  });

  test("find_references on the GameObject does not return the weapon's sites (and vice versa)", () => {
    const { linked } = memIndex(mod(body), sample);
    const go = findReferences(linked, "SharedThing", { type: "GameObject" });
    const wt = findReferences(linked, "SharedThing", { type: "WeaponTemplate" });
    if (isQueryError(go) || isQueryError(wt)) throw new Error("unexpected error");
    expect(go.references.map((r) => `${r.from?.type}:${r.from?.id} ${r.element} ${r.file}:${r.line}:${r.column}`))
      .toEqual(["ObjectCreationList:OCL CreateObject Data/Mod.xml:6:58"]);
    expect(
      wt.references.map((r) =>
        `${r.from?.type}:${r.from?.id} ${r.element}@${r.attribute} ${r.file}:${r.line}:${r.column}`
      ),
    ).toEqual(["WeaponTemplate:Gun FireWeaponNugget@WeaponName Data/Mod.xml:5:65"]);
  });
});

describe("unresolved references: not found vs exists with another type", () => {
  const body = `<GameObject id="Tank" CommandSet="Gun" Side="Nobody" inheritFrom="Gun" />\n<WeaponTemplate id="Gun" />`;

  test("status on the sites", () => {
    const { linked } = memIndex(mod(body), sample);
    expect(linked.sites.map((s) => `${s.kind} ${s.value} ${s.line}:${s.column} ${s.status}`)).toEqual([
      "attribute Gun 3:35 wrong_type",
      "attribute Nobody 3:46 not_found",
      "inheritFrom Gun 3:67 wrong_type",
    ]);
  });

  test("with an SDK: one diagnostic per site, naming the types that exist or the type expected", () => {
    const { linked } = memIndex({ ...mod(body), "sdk:Schemas/xsd/CnC3Types.xsd": "" }, sample);
    expect(diagnosticsOf(linked)).toEqual([
      'Data/Mod.xml:3:35 warning wrong-type-reference: "Gun" exists only as WeaponTemplate, not as LogicCommandSet',
      'Data/Mod.xml:3:46 warning unresolved-reference: "Nobody" was not found (expected PlayerTemplate)',
      'Data/Mod.xml:3:67 warning wrong-type-reference: "Gun" exists only as WeaponTemplate, not as GameObject',
    ]);
  });

  test("project-only: references that may name vanilla assets are ONE information diagnostic", () => {
    const { linked } = memIndex(
      { ...mod(body), "Data/Draft.xml": doc(`<GameObject id="Draft" CommandSet="VanillaCmds" />`) },
      sample,
    );
    expect(diagnosticsOf(linked)).toEqual([
      "-:0:0 information external-references: 3 references point at assets outside the project (and 1 more in files no entry point includes)",
    ]);
  });
});

describe("heuristic mode (no schema)", () => {
  const body = [
    `<GameObject id="Tank" CommandSet="TankCmds" KindOf="SELECTABLE VEHICLE" EditorName="Nothing here" Side="Allies" Weapon="Tank">`,
    `<Cmd>TankCmds Missing</Cmd>`,
    `</GameObject>`,
    `<LogicCommandSet id="TankCmds" inheritFrom="BaseCmds" />`,
    `<LogicCommandSet id="BaseCmds" />`,
  ].join("\n");

  test("values that match a known id are references of kind heuristic; only resolved ones are kept; inheritFrom is still inheritFrom", () => {
    const { linked } = memIndex(mod(body), null);
    expect(sitesOf(linked)).toEqual([
      site({
        at: "Data/Mod.xml:3:35",
        kind: "heuristic",
        value: "TankCmds",
        element: "GameObject",
        parent: "AssetDeclaration",
        attribute: "CommandSet",
        to: ["LogicCommandSet:TankCmds"],
        from: "GameObject:Tank",
      }),
      site({
        at: "Data/Mod.xml:4:6",
        kind: "heuristic",
        value: "TankCmds",
        element: "Cmd",
        parent: "GameObject",
        to: ["LogicCommandSet:TankCmds"],
        from: "GameObject:Tank",
      }),
      site({
        at: "Data/Mod.xml:6:45",
        kind: "inheritFrom",
        value: "BaseCmds",
        selfType: "LogicCommandSet",
        element: "LogicCommandSet",
        parent: "AssetDeclaration",
        attribute: "inheritFrom",
        to: ["LogicCommandSet:BaseCmds"],
        from: "LogicCommandSet:TankCmds",
      }),
    ]);
  });

  test("a value's tokens: split at any space (a non-breaking one too), one not starting like an id never read", () => {
    // Line 3 of Data/Mod.xml (doc() puts the body there); each attribute holds TankCmds in another way.
    const line = `<GameObject id="Tank2" A="12 TankCmds" B="9TankCmds" C="1\u00a0TankCmds" D="Tänk TankCmds" ` +
      `E="TankCmds" F="" G="TankCmds12"/>`;
    const { linked } = memIndex(mod(`${line}\n<LogicCommandSet id="TankCmds" />`), null);
    const at = (attribute: string, from = 0) => line.indexOf("TankCmds", line.indexOf(` ${attribute}="`) + from) + 1;
    const heuristic = (attribute: string) =>
      site({
        at: `Data/Mod.xml:3:${at(attribute)}`,
        kind: "heuristic",
        value: "TankCmds",
        element: "GameObject",
        parent: "AssetDeclaration",
        attribute,
        to: ["LogicCommandSet:TankCmds"],
        from: "GameObject:Tank2",
      });
    expect(sitesOf(linked)).toEqual([heuristic("A"), heuristic("C"), heuristic("D"), heuristic("E")]);
  });

  test("no unresolved-reference noise without a schema", () => {
    const { linked } = memIndex({ ...mod(body), "sdk:Schemas/xsd/CnC3Types.xsd": "" }, null);
    expect(diagnosticsOf(linked)).toEqual([]);
  });
});

describe("uses: the Athena Cannon's weapons (direct, through a CreateObjectDie helper object, through inheritFrom)", () => {
  const files = {
    "Data/Mod.xml": doc(includes(["all", "Units/Athena.xml"], ["all", "Weapons.xml"])),
    "Data/Units/Athena.xml": doc(
      [
        `<Includes><Include type="instance" source="Base.xml" /></Includes>`,
        `<GameObject id="AlliedAthenaCannon" inheritFrom="BaseVehicle" CommandSet="AthenaCmds">`,
        `<Behaviors>`,
        `<WeaponSetUpdate id="ModuleTag_WSU"><WeaponSlotTurret ID="1"><Weapon Ordering="PRIMARY_WEAPON" Template="AthenaCannonBeam" /></WeaponSlotTurret></WeaponSetUpdate>`,
        `<CreateObjectDie id="ModuleTag_Die" CreationList="OCL_AthenaWreck" />`,
        `</Behaviors>`,
        `</GameObject>`,
        `<ObjectCreationList id="OCL_AthenaWreck"><CreateObject><CreateObject>AthenaWreckHelper</CreateObject></CreateObject></ObjectCreationList>`,
        `<GameObject id="AthenaWreckHelper"><Behaviors><WeaponSetUpdate id="ModuleTag_WSU"><WeaponSlotTurret ID="1"><Weapon Ordering="PRIMARY_WEAPON" Template="AthenaWreckBurn" /></WeaponSlotTurret></WeaponSetUpdate></Behaviors></GameObject>`,
        `<LogicCommandSet id="AthenaCmds" />`,
      ].join("\n"),
    ),
    "Data/Units/Base.xml": doc(
      `<GameObject id="BaseVehicle"><Behaviors><FireWeaponWhenDead id="ModuleTag_DW" DeathWeapon="VehicleDeathExplosion" /></Behaviors></GameObject>`,
    ),
    "Data/Weapons.xml": doc(
      [
        `<WeaponTemplate id="AthenaCannonBeam" FireSound="AthenaFire"><Nuggets><FireWeaponNugget WeaponName="AthenaSplash" /></Nuggets></WeaponTemplate>`,
        `<WeaponTemplate id="AthenaSplash" />`,
        `<WeaponTemplate id="AthenaWreckBurn" />`,
        `<WeaponTemplate id="VehicleDeathExplosion" />`,
        `<AudioEvent id="AthenaFire" />`,
      ].join("\n"),
    ),
  };
  const { linked } = memIndex(files, sample);
  const athena = { type: "GameObject", id: "AlliedAthenaCannon" };
  const weapon = (id: string, line: number) => ({
    type: "WeaponTemplate",
    id,
    file: "Data/Weapons.xml",
    line,
    status: "resolved" as const,
  });
  const slot = { kind: "attribute" as const, element: "Weapon", parent: "WeaponSlotTurret", attribute: "Template" };
  const inheritEdge = {
    from: athena,
    to: { type: "GameObject", id: "BaseVehicle", file: "Data/Units/Base.xml", line: 3, status: "resolved" as const },
    via: { kind: "inheritFrom" as const, element: "GameObject", parent: "AssetDeclaration", attribute: "inheritFrom" },
    source: { file: "Data/Units/Athena.xml", line: 4 },
    depth: 1,
  };
  const direct = {
    from: athena,
    to: weapon("AthenaCannonBeam", 3),
    via: slot,
    source: { file: "Data/Units/Athena.xml", line: 6 },
    depth: 1,
  };
  const inherited = {
    from: athena,
    to: weapon("VehicleDeathExplosion", 6),
    via: { kind: "attribute" as const, element: "FireWeaponWhenDead", parent: "Behaviors", attribute: "DeathWeapon" },
    source: { file: "Data/Units/Base.xml", line: 3 },
    definedIn: { type: "GameObject", id: "BaseVehicle" },
    depth: 1,
  };

  test("depth 3, WeaponTemplate only: exact edges with provenance", () => {
    const r = uses(linked, "AlliedAthenaCannon", { depth: 3, targetTypes: ["WeaponTemplate"] });
    expect(r).toEqual({
      asset: { ...athena, file: "Data/Units/Athena.xml", line: 4 },
      depth: 3,
      targetTypes: ["WeaponTemplate"],
      edges: [
        inheritEdge,
        direct,
        inherited,
        {
          from: { type: "WeaponTemplate", id: "AthenaCannonBeam" },
          to: weapon("AthenaSplash", 4),
          via: { kind: "attribute" as const, element: "FireWeaponNugget", parent: "Nuggets", attribute: "WeaponName" },
          source: { file: "Data/Weapons.xml", line: 3 },
          depth: 2,
        },
        // Reached through CreateObjectDie → ObjectCreationList → the helper GameObject.
        {
          from: { type: "GameObject", id: "AthenaWreckHelper" },
          to: weapon("AthenaWreckBurn", 5),
          via: slot,
          source: { file: "Data/Units/Athena.xml", line: 11 },
          depth: 3,
        },
      ],
      truncated: false,
      // CommandSet, CreationList (depth 1), FireSound (depth 2), the OCL's CreateObject (depth 2).
      omittedByTargetType: 4,
      inheritChain: [{ type: "GameObject", id: "BaseVehicle" }],
    });
  });

  test("default depth 1 without a type filter: every own and inherited reference", () => {
    const r = uses(linked, "AlliedAthenaCannon");
    if (isQueryError(r)) throw new Error(r.error.message);
    expect(r.depth).toBe(1);
    expect(r.edges.map((e) => `${e.via.kind} ${e.to.type}:${e.to.id}${e.definedIn ? ` (in ${e.definedIn.id})` : ""}`))
      .toEqual([
        "inheritFrom GameObject:BaseVehicle",
        "attribute LogicCommandSet:AthenaCmds",
        "attribute WeaponTemplate:AthenaCannonBeam",
        "attribute ObjectCreationList:OCL_AthenaWreck",
        "attribute WeaponTemplate:VehicleDeathExplosion (in BaseVehicle)",
      ]);
    expect([r.truncated, r.omittedByTargetType]).toEqual([false, 0]);
  });

  test("maxEdges: the list stops, truncated is set and the filtered-out edges seen so far are counted", () => {
    const r = uses(linked, "AlliedAthenaCannon", { depth: 3, targetTypes: ["WeaponTemplate"], maxEdges: 2 });
    if (isQueryError(r)) throw new Error(r.error.message);
    expect([r.edges, r.truncated, r.omittedByTargetType]).toEqual([[inheritEdge, direct], true, 2]);
  });

  test("depth outside 1..3 is an error with one sentence", () => {
    expect(uses(linked, "AlliedAthenaCannon", { depth: 0 })).toEqual({
      error: { code: "bad_argument", message: "depth must be 1, 2 or 3, got 0" },
    });
    expect(uses(linked, "AlliedAthenaCannon", { depth: 4 })).toEqual({
      error: { code: "bad_argument", message: "depth must be 1, 2 or 3, got 4" },
    });
  });
});

describe("uses: inheritFrom chains", () => {
  const objects = (n: number, inherit: (i: number) => string | null) =>
    Array.from({ length: n }, (_, i) => {
      const parent = inherit(i);
      return `<GameObject id="G${i}"${
        parent ? ` inheritFrom="${parent}"` : ""
      }><Behaviors><FireWeaponWhenDead id="M" DeathWeapon="W${i}" /></Behaviors></GameObject>\n<WeaponTemplate id="W${i}" />`;
    }).join("\n");

  test("at most 8 ancestors are followed", () => {
    const { linked } = memIndex(mod(objects(11, (i) => (i < 10 ? `G${i + 1}` : null))), sample);
    const r = uses(linked, "G0", { targetTypes: ["WeaponTemplate"] });
    if (isQueryError(r)) throw new Error(r.error.message);
    expect(r.inheritChain.map((a) => a.id)).toEqual(["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8"]);
    expect(
      r.edges.filter((e) => e.via.kind !== "inheritFrom").map((e) =>
        `${e.to.id}${e.definedIn ? `<${e.definedIn.id}` : ""}`
      ),
    ).toEqual([
      "W0",
      "W1<G1",
      "W2<G2",
      "W3<G3",
      "W4<G4",
      "W5<G5",
      "W6<G6",
      "W7<G7",
      "W8<G8",
    ]);
    expect(inheritChain(linked, linked.findAssets("G0")[0]).length).toBe(8);
  });

  test("a cycle terminates", () => {
    const { linked } = memIndex(mod(objects(2, (i) => `G${1 - i}`)), sample);
    const r = uses(linked, "G0", { depth: 3, targetTypes: ["WeaponTemplate"] });
    if (isQueryError(r)) throw new Error(r.error.message);
    expect(r.inheritChain.map((a) => a.id)).toEqual(["G1"]);
    expect(
      r.edges.filter((e) => e.via.kind !== "inheritFrom").map((e) =>
        `${e.to.id}${e.definedIn ? `<${e.definedIn.id}` : ""}`
      ),
    ).toEqual(["W0", "W1<G1"]);
  });
});

const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");
async function sampleIndex() {
  const cfg = resolveConfig({ project: SAMPLE, sdk: "", schema: null, home: TMP.make("ra3-poid-") });
  if ("envError" in cfg) throw new Error(cfg.envError);
  const ws = new Workspace(cfg);
  await ws.build();
  return { linked: ws.linked! };
}

describe("a root-level xi:include's spliced children are assets", () => {
  test("their ids as the game reads them: trimmed, read in place or decoded", () => {
    const files = {
      "Data/Mod.xml": doc(
        `<xi:include href="Frag.xml" xpointer="xmlns(n=uri:ea.com:eala:asset) xpointer(/n:Units/child::*)" />`,
        ` xmlns:xi="http://www.w3.org/2001/XInclude"`,
      ),
      "Data/Frag.xml":
        `<Units xmlns="uri:ea.com:eala:asset">\n<GameObject id=" Padded\t" />\n<GameObject id="Plain" />` +
        `\n<GameObject id="A&amp;B" />\n<GameObject id="  " />\n</Units>\n`,
    };
    const { linked } = memIndex(files, null);
    expect(linked.assets.filter((a) => a.viaXInclude).map((a) => [a.type, a.id, a.line, a.column])).toEqual([
      ["GameObject", "Padded", 2, 17],
      ["GameObject", "Plain", 3, 17],
      ["GameObject", "A&B", 4, 17],
    ]);
  });
});
