/**
 * Writes the `Data/` tree of the synthetic mod: entry points, hubs, shared files, base objects,
 * xi:include fragments, defines and a few inactive drafts. Each object's own folder is written by
 * `object-files.ts`.
 */
import type { GenContext } from "./context.ts";
import { ASSET_NS, DataDocuments, XI_NS } from "./documents.ts";
import { FACTIONS } from "./names.ts";
import { type BaseObject, type ModPlan, range } from "./plan.ts";
import { ObjectFolderWriter } from "./object-files.ts";
import type { XmlDoc } from "./xml.ts";

/** Writes every XML file under `Data/`. */
export function writeData(ctx: GenContext, plan: ModPlan): void {
  new DataWriter(ctx, plan).writeAll();
}

class DataWriter extends DataDocuments {
  private readonly folders: ObjectFolderWriter;

  constructor(ctx: GenContext, plan: ModPlan) {
    super(ctx, plan);
    this.folders = new ObjectFolderWriter(ctx, plan);
  }

  writeAll(): void {
    this.writeModXml();
    this.writeGlobalStream();
    this.writeDefines();
    this.writeBases();
    this.writeCommon();
    this.writeTextures();
    this.writeFragments();
    for (const o of this.plan.objects) this.folders.write(o);
    for (const f of FACTIONS) this.writeFactionHub(f.name);
    this.writeInactive();
  }

  // ---------------------------------------------------------------- entry points and hubs

  private writeModXml(): void {
    const rel = "Data/Mod.xml";
    const doc = this.begin();
    doc.comment("Static stream entry of the synthetic mod (scripts/gen-corpus.ts).");
    doc.leaf("Tags");
    doc.blank();
    this.includes(doc, [
      ["reference", "DATA:static.xml"],
      ["reference", "DATA:global.xml"],
      ["reference", "DATA:audio.xml"],
      ["all", this.variant("GlobalData/GlobalDefines.xml")],
      ["all", "Mod/Common.xml"],
      ["all", "Mod/Textures.xml"],
      ...FACTIONS.map((f) => ["all", this.variant(`Mod/${f.name}.xml`)] as const),
    ]);
    this.finish(doc, rel, { bom: true, crlf: true });
  }

  private writeGlobalStream(): void {
    const settings = "Data/AdditionalMaps/Global/Global Settings.xml";
    const s = this.begin();
    s.asset("CameraSettings");
    s.leaf("CameraSettings", [["id", "TheCameraSettings"], ["MaxCameraHeight", "320"], ["MinCameraHeight", "120"], [
      "PitchAngle",
      "37.5d",
    ]]);
    s.asset("MultiplayerSettings");
    s.leaf("MultiplayerSettings", [["id", "TheMultiplayerSettings"], ["StartCountdownTimer", "5"], [
      "MaxBeaconsPerPlayer",
      "3",
    ]]);
    this.finish(s, settings);
    const rel = "Data/AdditionalMaps/MapMetaData_Global.xml";
    const doc = this.begin();
    doc.comment("Global stream entry: compiled separately from Mod.xml.");
    this.includes(doc, [
      ["all", "../GlobalData/GlobalDefines.xml"],
      ["all", this.variant("Global/Global Settings.xml")],
    ]);
    this.finish(doc, rel);
  }

  private writeDefines(): void {
    const doc = this.begin();
    doc.open("Defines");
    for (const d of this.plan.defines) doc.leaf("Define", [["name", d.name], ["value", d.value]]);
    doc.close("Defines");
    this.finish(doc, "Data/GlobalData/GlobalDefines.xml");
  }

  private writeFactionHub(faction: string): void {
    const rel = `Data/Mod/${faction}.xml`;
    const doc = this.begin();
    const mine = this.plan.objects.filter((o) => o.faction.name === faction);
    this.includes(doc, mine.map((o) => ["all", this.variant(`${o.group}/${o.name}.xml`)] as const));
    this.finish(doc, rel);
  }

  // ---------------------------------------------------------------- defines, bases, shared files

  private writeBases(): void {
    const { bases, common, objects } = this.plan;
    const r = this.rng;
    // A base file is reached only through instance includes: from objects that inherit from it (and its
    // parents, which each base file includes in turn), CommonObjects.xml and projectiles.
    const reached = new Set<string>();
    const reach = (b: BaseObject | null | undefined): void => {
      for (; b && !reached.has(b.file); b = b.parent) reached.add(b.file);
    };
    for (const o of objects) reach(o.base);
    reach(bases.byKey.get("BaseObject"));
    if (objects.some((o) => o.projectile)) reach(bases.byKey.get("BaseProjectile"));
    for (const b of bases.objects) {
      const rel = `Data/BaseObjects/${b.file}`;
      const doc = this.begin();
      if (b.parent) {
        this.includes(doc, [["instance", r.chance(0.3) ? `DATA:BaseObjects/${b.parent.file}` : b.parent.file]]);
      }
      doc.asset("GameObject");
      const kind = b.kind;
      doc.open("GameObject", [
        ["id", b.target.id],
        b.parent && ["inheritFrom", doc.inherit(b.parent.target, r.chance(0.2))],
        b.faction && ["Side", doc.a(this.v.side(b.faction), r.chance(0.3))],
        b.faction && ["CommandSet", doc.a(bases.commandSets.get(kind === "structure" ? "structure" : "unit")!)],
        kind &&
        [
          "KindOf",
          kind === "structure"
            ? "STRUCTURE IMMOBILE SELECTABLE SCORE"
            : `SELECTABLE CAN_ATTACK SCORE ${kind.toUpperCase()}`,
        ],
        ["EditorSorting", kind === "structure" ? "STRUCTURE" : kind ? "UNIT" : "SYSTEM"],
        kind && ["VisionRange", this.w.num(doc, `VISION:${kind}`, r.real(100, 400), 0.5)],
        kind && ["ShroudClearingRange", r.real(100, 400)],
      ], true);
      if (kind && !b.faction) {
        doc.leaf("ArmorSet", [["Armor", doc.a(bases.armor.get(kind)!)], ["DamageFX", doc.a(this.v.damageFx(kind))]]);
        const loco = bases.locomotors.get(kind);
        if (loco) {
          doc.leaf("LocomotorSet", [["id", "ModuleTag_Locomotor_Normal"], ["Locomotor", doc.a(loco)], [
            "Condition",
            "NORMAL",
          ], ["Speed", r.real(20, 80)]]);
        }
      }
      doc.open("Body");
      doc.leaf("ActiveBody", [["id", "ModuleTag_Body"], [
        "MaxHealth",
        kind ? this.w.num(doc, `HEALTH:${kind}`, String(r.int(2, 40) * 50), 0.5) : "100",
      ]]);
      doc.close("Body");
      doc.open("Behaviors");
      if (kind) {
        doc.open("FXListBehavior", [["id", "ModuleTag_BaseDeathFX"]]);
        doc.leaf("DieMuxData", [["DeathTypes", "ALL"]]);
        doc.leaf("Event", [["Index", "onDeath"], ["FX", doc.a(r.skewed(common.fx))]]);
        doc.close("FXListBehavior");
      }
      doc.leaf("PhysicsBehavior", [["id", "ModuleTag_Physics"], ["Mass", r.real(1, 100)]]);
      doc.close("Behaviors");
      if (kind && kind !== "structure") {
        doc.open("AI");
        doc.leaf("AIUpdate", [["id", "ModuleTag_AI"], ["AutoAcquireEnemiesWhenIdle", "YES"]]);
        doc.close("AI");
      }
      doc.close("GameObject");
      this.finish(doc, rel, { active: reached.has(b.file) });
    }

    // Base weapons, sounds, armor, locomotors, particles and command sets, one file each.
    let doc = this.begin();
    const baseWeapon = bases.weapons.get("")!;
    this.w.weapon(doc, baseWeapon, { weaponClass: "GUN" });
    for (const [cls, t] of bases.weapons) {
      if (cls) {
        this.w.weapon(doc, t, {
          weaponClass: cls,
          inherit: baseWeapon,
          fireFx: r.chance(0.5) ? r.skewed(common.fx) : null,
        });
      }
    }
    this.finish(doc, "Data/BaseObjects/BaseWeapons.xml");

    doc = this.begin();
    const modSound = bases.audio.get("BaseModSound")!;
    for (const [name, t] of bases.audio) {
      this.w.audioEvent(doc, t, {
        inherit: name === "BaseModSound" ? this.v.audioBase : modSound,
        files: [],
        voice: name === "BaseUnitVoice",
      });
    }
    this.finish(doc, "Data/BaseObjects/BaseAudio.xml");

    doc = this.begin();
    for (const t of bases.armor.values()) this.w.armor(doc, t, null);
    this.finish(doc, "Data/BaseObjects/BaseArmor.xml");

    doc = this.begin();
    for (const [kind, t] of bases.locomotors) this.w.locomotor(doc, t, kind, null);
    this.finish(doc, "Data/BaseObjects/BaseLocomotors.xml");

    doc = this.begin();
    for (const t of bases.particles) this.w.particleSystem(doc, t, r.skewed(common.textures), null, null);
    this.finish(doc, "Data/BaseObjects/BaseParticles.xml");

    doc = this.begin();
    for (const [which, t] of bases.commandSets) {
      doc.asset("LogicCommandSet");
      doc.open("LogicCommandSet", [["id", t.id]]);
      const cmds = which === "unit" ? this.v.commands.slice(0, 3) : this.v.commands.slice(3);
      for (const c of cmds) doc.text("Cmd", doc.c(c));
      doc.close("LogicCommandSet");
    }
    this.finish(doc, "Data/BaseObjects/BaseCommandSets.xml");
  }

  private writeCommon(): void {
    const { common, bases } = this.plan;
    const r = this.rng;
    const files: string[] = [];
    const write = (name: string, doc: XmlDoc) => {
      const rel = `Data/Mod/Common/${name}.xml`;
      files.push(`Common/${name}.xml`);
      this.finish(doc, rel);
    };

    let doc = this.begin();
    this.includes(doc, [["instance", this.baseInclude("Data/Mod/Common/CommonAudio.xml", "BaseAudio.xml")]]);
    let fileIndex = 0;
    for (const e of common.audioEvents) {
      const n = r.int(1, 3);
      const fs = range(n).map((i) => common.audioFiles[(fileIndex + i) % common.audioFiles.length]);
      fileIndex += n;
      this.w.audioEvent(doc, e, { inherit: bases.audio.get("BaseExplosionSound")!, files: fs, voice: false });
    }
    for (const f of common.audioFiles) this.w.audioFile(doc, f, "Common");
    write("CommonAudio", doc);

    doc = this.begin();
    this.includes(doc, [["instance", this.baseInclude("Data/Mod/Common/CommonParticles.xml", "BaseParticles.xml")]]);
    for (const p of common.particles) {
      this.w.particleSystem(doc, p, this.texture(), r.chance(0.4) ? r.pick(bases.particles) : null, null);
    }
    write("CommonParticles", doc);

    doc = this.begin();
    for (const f of common.fx) {
      this.w.fxList(doc, f, {
        sound: r.chance(0.6) ? r.skewed(common.audioEvents) : null,
        particles: r.sample(common.particles, r.int(1, 3)),
      });
    }
    write("CommonFX", doc);

    doc = this.begin();
    this.includes(doc, [["instance", this.baseInclude("Data/Mod/Common/CommonObjects.xml", "BaseObject.xml")]]);
    common.debris.forEach((d, i) => {
      const art = common.art[i];
      doc.asset("GameObject");
      doc.open("GameObject", [["id", d.id], ["inheritFrom", doc.inherit(bases.byKey.get("BaseObject")!.target)], [
        "KindOf",
        "INERT NO_COLLIDE",
      ], ["EditorSorting", "MISC"]], true);
      doc.open("Draws");
      doc.open("ScriptedModelDraw", [["id", "ModuleTag_Draw"]]);
      doc.open("ModelConditionState", [["ParseCondStateType", "PARSE_DEFAULT"]]);
      doc.leaf("Model", [["Name", doc.a(art.main)]]);
      doc.close("ModelConditionState");
      doc.close("ScriptedModelDraw");
      doc.close("Draws");
      doc.open("Behaviors");
      doc.open("SlowDeath", [["id", "ModuleTag_SlowDeath"], ["DestructionDelay", `${r.int(1, 9)}s`]]);
      doc.leaf("FX", [["Type", "INITIAL"], ["List", doc.a(r.skewed(common.fx))]]);
      doc.close("SlowDeath");
      doc.close("Behaviors");
      doc.close("GameObject");
      doc.blank();
    });
    write("CommonObjects", doc);

    doc = this.begin();
    for (const o of common.ocls) {
      const groups = [r.sample(common.debris, r.int(1, 2))];
      if (r.chance(0.3)) groups.push([r.pick(this.v.debris)]);
      this.w.ocl(doc, o, groups);
    }
    write("CommonOCL", doc);

    doc = this.begin();
    this.includes(doc, [["instance", this.baseInclude("Data/Mod/Common/CommonWeapons.xml", "BaseWeapons.xml")]]);
    for (const t of common.weapons) {
      this.w.weapon(doc, t, {
        weaponClass: "CANNON",
        inherit: bases.weapons.get("CANNON")!,
        fireFx: r.skewed(common.fx),
      });
    }
    write("CommonWeapons", doc);

    doc = this.begin();
    this.includes(doc, common.art.map((a) => ["all", this.artSource("Data/Mod/Common/CommonArt.xml", a)] as const));
    write("CommonArt", doc);

    const hub = this.begin();
    this.includes(hub, files.map((f) => ["all", this.variant(f)] as const));
    this.finish(hub, "Data/Mod/Common.xml");
  }

  private writeTextures(): void {
    const per = 50;
    const textures = this.plan.common.textures;
    const files: string[] = [];
    for (let i = 0; i * per < textures.length; i++) {
      const name = `Textures/FX Textures ${String(i + 1).padStart(2, "0")}.xml`;
      files.push(name);
      const doc = this.begin();
      for (const t of textures.slice(i * per, (i + 1) * per)) this.w.texture(doc, t);
      this.finish(doc, `Data/Mod/${name}`);
    }
    const hub = this.begin();
    this.includes(hub, files.map((f) => ["all", this.variant(f)] as const));
    this.finish(hub, "Data/Mod/Textures.xml");
  }

  private writeFragments(): void {
    const { common } = this.plan;
    const r = this.rng;
    const byRoot = new Map(this.plan.fragments.map((f) => [f.root, f]));
    // CommonDeathBehaviors first: the death fragments splice it, so its count must be known.
    const order = [
      "CommonDeathBehaviors",
      ...this.plan.fragments.map((f) => f.root).filter((n) => n !== "CommonDeathBehaviors"),
    ];
    for (const root of order) {
      const f = byRoot.get(root)!;
      const doc = this.ctx.doc();
      doc.raw(`<?xml version="1.0" encoding="utf-8"?>`);
      doc.comment("A fragment: spliced into objects with xi:include + xpointer; not a document of its own.");
      const nested = root === "VehicleDeathBehaviors" || root === "InfantryDeathBehaviors" ||
        root === "StructureDeathBehaviors";
      doc.open(root, [["xmlns", ASSET_NS], nested && ["xmlns:xi", XI_NS]]);
      const id = f.modules[0];
      switch (root) {
        case "HeadlightDraws":
        case "MuzzleFlashDraws": {
          const model = root === "HeadlightDraws" ? common.headlight : common.muzzleFlash;
          doc.open("ScriptedModelDraw", [["id", id], ["OkToChangeModelColor", "true"]], true);
          doc.open("ModelConditionState", [["ParseCondStateType", "PARSE_DEFAULT"]]);
          doc.leaf("Model", [["Name", doc.a(model)]]);
          doc.close("ModelConditionState");
          doc.open("ModelConditionState", [["ParseCondStateType", "PARSE_NORMAL"], [
            "ConditionsYes",
            root === "HeadlightDraws" ? "USER_1" : "FIRING_OR_PREATTACK_A",
          ]]);
          doc.leaf("Model", [["Name", doc.a(model)]]);
          doc.close("ModelConditionState");
          doc.close("ScriptedModelDraw");
          break;
        }
        case "CommonDeathBehaviors":
          doc.open("FireWeaponWhenDead", [["id", id], ["DeathWeapon", doc.a(common.weapons[0])], [
            "InitiallyActive",
            "true",
          ]], true);
          doc.leaf("DieMuxData", [["DeathTypes", "ALL"], ["DeathTypesForbidden", "SUPERNATURAL"]]);
          doc.close("FireWeaponWhenDead");
          doc.open("FXListBehavior", [["id", `${id}FX`]]);
          doc.leaf("Event", [["Index", "onDeath"], ["FX", doc.a(common.fx[0])]]);
          doc.close("FXListBehavior");
          break;
        case "VehicleDeathBehaviors":
        case "InfantryDeathBehaviors":
          doc.open("FXListBehavior", [["id", id]]);
          doc.leaf("DieMuxData", [["DeathTypes", "ALL"]]);
          doc.leaf("Event", [["Index", "onDeath"], ["FX", doc.a(this.v.fx[root === "VehicleDeathBehaviors" ? 0 : 1])]]);
          doc.leaf("Event", [["Index", "onDamaged"], ["FX", doc.a(r.skewed(common.fx))]]);
          doc.close("FXListBehavior");
          if (root === "VehicleDeathBehaviors") {
            doc.open("CreateObjectDie", [["id", `${id}Debris`], ["CreationList", doc.a(common.ocls[0])]]);
            doc.leaf("DieMuxData", [["DeathTypes", "ALL"]]);
            doc.close("CreateObjectDie");
          }
          this.xinclude(doc, f.file, byRoot.get("CommonDeathBehaviors")!);
          break;
        case "StructureDeathBehaviors":
          doc.open(
            "SlowDeath",
            [["id", id], ["DestructionDelay", "3s"], ["SinkDelay", "1s"], ["SinkRate", "2.5"]],
            true,
          );
          doc.leaf("FX", [["Type", "INITIAL"], ["List", doc.a(r.skewed(common.fx))]]);
          doc.leaf("FX", [["Type", "FINAL"], ["List", doc.a(r.skewed(common.fx))]]);
          doc.leaf("OCL", [["Type", "FINAL"], ["List", doc.a(r.pick(common.ocls))]]);
          doc.close("SlowDeath");
          this.xinclude(doc, f.file, byRoot.get("CommonDeathBehaviors")!);
          break;
        case "VeterancyBehaviors":
          doc.open("StatusBitsUpgrade", [["id", id], ["StatusToSet", "WEAPON_UPGRADED_01"]]);
          for (const u of this.v.veterancy) doc.text("TriggeredBy", doc.c(u));
          doc.close("StatusBitsUpgrade");
          break;
        case "CrushRepairBehaviors":
          doc.open("FXListBehavior", [["id", id]]);
          doc.leaf("Event", [["Index", "onDamaged"], ["FX", doc.a(r.skewed(common.fx))]]);
          doc.close("FXListBehavior");
          doc.leaf("PhysicsBehavior", [["id", `${id}Physics`], ["Mass", "50"], ["AllowBouncing", "true"]]);
          break;
        default:
          throw new Error(`generator bug: no content for fragment ${root}`);
      }
      doc.close(root);
      const flip = r.next();
      this.ctx.writeXml(f.file, doc, { active: true, fragment: root, bom: flip < 0.1, crlf: flip > 0.7 });
    }
  }

  // ---------------------------------------------------------------- inactive files

  private writeInactive(): void {
    const { objects, sizes } = this.plan;
    const r = this.rng;
    const candidates = r.sample(objects, Math.min(objects.length, sizes.inactiveXml));
    for (let i = 0; i < sizes.inactiveXml; i++) {
      const o = candidates[i % candidates.length];
      // Names stay unique when there are more drafts than objects (a second round gets "(2)", "Old2" …).
      const round = Math.floor(i / candidates.length) + 1;
      if (i % 2 === 0) {
        // A modder's backup copy beside the real file: same assets, never included.
        const doc = this.folders.gameObjects.get(o.index)!;
        this.ctx.writeXml(`${o.folder}/GameObject - Copy${round > 1 ? ` (${round})` : ""}.xml`, doc, {
          active: false,
          crlf: true,
        });
        continue;
      }
      const t = this.ctx.define("GameObject", `${o.id}Old${round > 1 ? round : ""}`);
      const rel = `Data/Unused/${o.name} (old${round > 1 ? ` ${round}` : ""}).xml`;
      const doc = this.begin();
      this.includes(doc, [["instance", this.baseInclude(rel, o.base.file)]]);
      doc.asset("GameObject");
      doc.open("GameObject", [
        ["id", t.id],
        ["inheritFrom", doc.inherit(o.object)],
        ["CommandSet", doc.a(o.commandSet)],
        ["Side", doc.a(this.v.side(o.faction))],
      ], true);
      doc.open("Draws");
      doc.open("ScriptedModelDraw", [["id", "ModuleTag_Draw"]]);
      doc.open("ModelConditionState", [["ParseCondStateType", "PARSE_DEFAULT"]]);
      doc.leaf("Model", [["Name", doc.a(o.art.skn)]]);
      doc.close("ModelConditionState");
      doc.close("ScriptedModelDraw");
      doc.close("Draws");
      if (o.weapons.main) {
        doc.open("Behaviors");
        doc.open("WeaponSetUpdate", [["id", "ModuleTag_WeaponSetUpdate"]]);
        doc.open("WeaponSlotHardpoint", [["ID", "1"]]);
        doc.leaf("Weapon", [["Ordering", "PRIMARY_WEAPON"], ["Template", doc.a(o.weapons.main)]]);
        doc.close("WeaponSlotHardpoint");
        doc.close("WeaponSetUpdate");
        doc.close("Behaviors");
      }
      doc.close("GameObject");
      this.finish(doc, rel, { active: false, bom: r.chance(0.5) });
    }
    // The BinaryAssetBuilder project file, as the SDK writes it (Windows paths).
    this.ctx.writeOther(
      "mod.babproj",
      `\uFEFF<?xml version="1.0"?>
<BinaryAssetBuilderProject xmlns="urn:xmlns:ea.com:babproject">
  <Stream Source="C:\\RA3 MOD SDK\\Mods\\Synthetic\\data\\mod.xml">
    <Configuration Name="" Default="true">
      <StreamReference ReferenceName="audio.xml" ReferenceManifest="C:\\RA3 MOD SDK\\BuiltMods\\sagexml\\audio.manifest" ReferenceConfiguration="" />
      <StreamReference ReferenceName="global.xml" ReferenceManifest="C:\\RA3 MOD SDK\\BuiltMods\\sagexml\\global.manifest" ReferenceConfiguration="" />
      <StreamReference ReferenceName="static.xml" ReferenceManifest="C:\\RA3 MOD SDK\\BuiltMods\\sagexml\\static.manifest" ReferenceConfiguration="" />
    </Configuration>
  </Stream>
</BinaryAssetBuilderProject>
`,
    );
  }
}
