/**
 * Writes one object's folder (`Data/Mod/Units/Allied Athena Cannon/GameObject.xml`, `WeaponTemplate.xml`,
 * … `W3X.xml`) and its hub file beside the folder, as Upheaval lays units out.
 */
import { DataDocuments } from "./documents.ts";
import { BONES } from "./names.ts";
import { type ObjectPlan, range } from "./plan.ts";
import { ENUMS } from "./schema-table.ts";
import type { Attr, Target, XmlDoc } from "./xml.ts";

const CHANGES = [
  "balance pass: range and damage vs. vehicles",
  "new model and damaged states from the art team",
  "fixed missing death FX when crushed",
  "moved sounds to the shared audio events",
  "veterancy weapon now uses its own muzzle flash",
  "build time follows the tier defines",
  "removed the old upgrade, see UpgradeTemplate.xml",
  "tweaked turret turn rate for the new hierarchy",
];

export class ObjectFolderWriter extends DataDocuments {
  /** Object index → its GameObject.xml document (the inactive "- Copy" files repeat it). */
  readonly gameObjects = new Map<number, XmlDoc>();

  /** Writes the folder of `o` and its hub. */
  write(o: ObjectPlan): void {
    const files: string[] = [];
    const put = (name: string, doc: XmlDoc) => {
      this.banner(doc, o, name);
      this.finish(doc, `${o.folder}/${name}`);
      files.push(name);
    };
    put("GameObject.xml", this.gameObjectFile(o));
    put("WeaponTemplate.xml", this.weaponFile(o));
    put("FXList.xml", this.fxFile(o));
    put("FXParticleSystemTemplate.xml", this.particleFile(o));
    put("AudioEvent.xml", this.audioEventFile(o));
    put("AudioFile.xml", this.audioFileFile(o));
    put("LogicCommandSet.xml", this.commandFile(o));
    put("Armor.xml", this.armorFile(o));
    if (o.locomotor || o.projectileLocomotor) put("Locomotor.xml", this.locomotorFile(o));
    if (o.specialPowers.length) put("SpecialPowerTemplate.xml", this.specialPowerFile(o));
    if (o.upgrades.ability || o.upgrades.research) put("UpgradeTemplate.xml", this.upgradeFile(o));
    if (o.ocls.death || o.ocls.spawn) put("ObjectCreationList.xml", this.oclFile(o));
    put("W3X.xml", this.artHub(o));
    // The object's hub, beside its folder (Units/Allied Athena Cannon.xml), as Upheaval does.
    const hub = this.begin();
    this.includes(hub, files.map((f) => ["all", this.variant(`${o.name}/${f}`)] as const));
    this.finish(hub, `${o.folder}.xml`);
  }

  private gameObjectFile(o: ObjectPlan): XmlDoc {
    const r = this.rng;
    const w = this.w;
    const rel = `${o.folder}/GameObject.xml`;
    const doc = this.begin({ xi: o.drawFragment !== null || o.behaviorFragment !== null, xai: true });
    const incs: (readonly ["instance", string])[] = [["instance", this.baseInclude(rel, o.base.file)]];
    if (o.projectile) incs.push(["instance", this.baseInclude(rel, "BaseProjectile.xml")]);
    this.includes(doc, incs);

    const kind = o.kind;
    const kindFlags: Record<string, string> = {
      infantry: "INFANTRY",
      vehicle: "VEHICLE",
      aircraft: "AIRCRAFT",
      ship: "SHIP AMPHIBIOUS",
      structure: "STRUCTURE IMMOBILE FS_FACTORY",
    };
    doc.asset("GameObject");
    doc.open("GameObject", [
      ["id", o.id],
      ["inheritFrom", doc.inherit(o.base.target, r.chance(0.15))],
      ["SelectPortrait", `Portrait_${o.id}`],
      ["ButtonImage", `Button_${o.id}`],
      ["Side", doc.a(this.v.side(o.faction), r.chance(0.2))],
      ["EditorSorting", kind === "structure" ? "STRUCTURE" : "UNIT"],
      ["BuildTime", w.num(doc, `BUILDTIME:${kind}`, r.real(5, 40))],
      ["CommandSet", doc.a(o.commandSet)],
      [
        "KindOf",
        `SELECTABLE SCORE ${kindFlags[kind]}${o.weapons.main ? " CAN_ATTACK" : ""} ${
          r.pick(["T1_UNIT", "T2_UNIT", "T3_UNIT"])
        }`,
      ],
      ["VisionRange", w.num(doc, `VISION:${kind}`, r.real(150, 450))],
      r.chance(0.6) && ["ShroudClearingRange", r.real(150, 500)],
      ["SubGroupPriority", String(r.int(100, 900))],
      ["VoicePriority", String(r.int(50, 300))],
      ["EditorName", o.id],
      ["Description", `Desc:${o.id}`],
      ["TypeDescription", `Type:${o.id}`],
      r.chance(0.5) && ["HealthBoxHeightOffset", r.real(10, 60)],
    ], true);
    doc.text("DisplayName", `Name:${o.id}`, [["xai:joinAction", "Replace"]]);
    doc.open("ObjectResourceInfo");
    doc.leaf("BuildCost", [["Account", "0"], ["Amount", String(r.int(1, 40) * 50)]]);
    doc.close("ObjectResourceInfo");
    doc.open("GameDependency");
    doc.text("RequiredObject", doc.c(o.producer ? o.producer.object : this.v.constructionYard(o.faction)));
    if (o.upgrades.research && r.chance(0.5)) doc.text("RequiredUpgrade", doc.c(o.upgrades.research));
    doc.close("GameDependency");
    doc.leaf("ArmorSet", [["Armor", doc.a(o.armor)], ["DamageFX", doc.a(this.v.damageFx(kind))]]);
    if (o.armorUpgraded) {
      doc.leaf("ArmorSet", [["Conditions", "PLAYER_UPGRADE"], ["Armor", doc.a(o.armorUpgraded)], [
        "DamageFX",
        doc.a(this.v.damageFx(kind)),
      ]]);
    }
    if (o.locomotor) {
      doc.leaf("LocomotorSet", [
        ["id", "ModuleTag_Locomotor_Normal"],
        ["Locomotor", doc.a(o.locomotor, r.chance(0.1))],
        ["Condition", "NORMAL"],
        ["Speed", w.num(doc, `SPEED:${kind}`, r.real(20, 120))],
      ], true);
      if (r.chance(0.3)) {
        doc.leaf("LocomotorSet", [["id", "ModuleTag_Locomotor_Panic"], ["Locomotor", doc.a(o.locomotor)], [
          "Condition",
          "PANIC",
        ], ["Speed", r.real(20, 150)]], true);
      }
    }
    const ev = o.audio.events;
    doc.open("AudioArrayVoice");
    const voices = [
      ["VoiceSelect", "voiceSelect"],
      ["VoiceMove", "voiceMove"],
      ["VoiceAttack", "voiceAttack"],
      ["VoiceAttack", "voiceAttackAfterMoving"],
      ["VoiceCreate", "voiceCreated"],
      ["VoiceMove", "voiceRetreat"],
      ["VoiceSelect", "voiceGuard"],
    ] as const;
    for (const [name, type] of voices) {
      const t = name === "VoiceSelect" && o.audio.multisound ? o.audio.multisound : ev.get(name)!;
      doc.leaf("AudioEntry", [["Sound", doc.a(t)], ["AudioType", type]]);
    }
    doc.close("AudioArrayVoice");
    doc.open("AudioArraySound");
    if (ev.has("MoveLoop")) {
      doc.leaf("AudioEntry", [["Sound", doc.a(ev.get("MoveLoop")!)], ["AudioType", "soundMoveLoop"]]);
    }
    if (ev.has("Ambient")) {
      doc.leaf("AudioEntry", [["Sound", doc.a(ev.get("Ambient")!)], ["AudioType", "soundAmbient"]]);
    }
    doc.leaf("AudioEntry", [["Sound", doc.a(ev.get("Die")!)], ["AudioType", "soundDie"]]);
    doc.close("AudioArraySound");

    // Draws: many model condition states naming the object's render objects.
    doc.open("Draws");
    const drawTag = kind === "vehicle" ? "TruckDraw" : "ScriptedModelDraw";
    const drawAttrs: Attr[] = [
      ["id", "ModuleTag_Draw"],
      ["OkToChangeModelColor", "true"],
      ["InitialRecoilSpeed", r.real(0.5, 3)],
      ["MaxRecoilDistance", r.real(1, 6)],
      ["RecoilDamping", r.real(0.2, 2)],
      ["RecoilSettleSpeed", r.real(0.5, 4)],
      ["ExtraPublicBone", r.sample(BONES, 3).join(" ")],
    ];
    if (drawTag === "TruckDraw") {
      drawAttrs.push(
        ["LeftFrontTireBone", "Bone_Tracks_Left"],
        ["RightFrontTireBone", "Bone_Tracks_Right"],
        ["TireRotationMultiplier", r.real(0, 1, 2)],
        ["TrackMarks", "EXTnkTrack"],
        ["TrackMarksLeftBone", "BONE_TREADS_LEFT"],
        ["TrackMarksRightBone", "BONE_TREADS_RIGHT"],
      );
    }
    doc.open(drawTag, drawAttrs, true);
    // Real units carry dozens of model condition states (Upheaval's Hammer Tank: 50 KB of GameObject).
    const states = kind === "infantry" ? r.int(10, 18) : kind === "structure" ? r.int(18, 36) : r.int(16, 32);
    for (let s = 0; s < states; s++) {
      if ((s === 3 && r.chance(0.6)) || (s === 10 && r.chance(0.5)) || (s === 17 && r.chance(0.3))) {
        this.commentedOutState(doc, o);
      }
      const damaged = s > 0 && o.art.dmg !== null && r.chance(0.35);
      doc.open("ModelConditionState", [
        ["ParseCondStateType", s === 0 ? "PARSE_DEFAULT" : "PARSE_NORMAL"],
        s > 0 &&
        [
          "ConditionsYes",
          damaged
            ? `REALLYDAMAGED ${r.pick(ENUMS.ModelCondition.slice(2, 12))}`
            : w.flags(ENUMS.ModelCondition.slice(2), 1, 2),
        ],
        r.chance(0.3) && ["RetainSubObjects", "true"],
      ], true);
      doc.leaf("Model", [["Name", doc.a(damaged ? o.art.dmg! : o.art.skn, r.chance(0.05))]]);
      for (let b = o.weapons.main ? r.int(3, 9) : r.int(1, 3); b > 0; b--) {
        const tag = r.pick(["WeaponFireFXBone", "WeaponRecoilBone", "WeaponLaunchBone"]);
        doc.leaf(tag, [["WeaponSlotID", String(r.int(1, 2))], ["WeaponSlotType", r.pick(ENUMS.WeaponSlotType)], [
          "BoneName",
          r.pick(BONES),
        ]], true);
      }
      for (let p = r.chance(0.45) ? r.int(1, 2) : 0; p > 0; p--) {
        doc.leaf("ParticleSysBone", [["BoneName", r.pick(BONES)], [
          "FXParticleSystemTemplate",
          doc.a(r.pick(o.particles)),
        ], ["FollowBone", "true"]]);
      }
      if (kind !== "infantry" && r.chance(0.4)) {
        doc.leaf("Turret", [["TurretNameKey", "Bone_Turret"], ["TurretID", "1"]]);
      }
      doc.close("ModelConditionState");
    }
    for (const anim of o.art.anims.flatMap((a) => range(r.int(2, 4)).map(() => a))) {
      doc.open("AnimationState", [
        ["ParseCondStateType", "PARSE_NORMAL"],
        ["ConditionsYes", w.flags(ENUMS.ModelCondition.slice(2, 10), 1, 2)],
        ["StateName", anim.id.slice(anim.id.lastIndexOf("_") + 1)],
        r.chance(0.3) && ["EnteringStateFX", doc.a(o.fx.muzzle)],
      ]);
      doc.leaf("Animation", [["AnimationName", doc.a(anim, r.chance(0.05))], [
        "AnimationMode",
        r.pick(ENUMS.AnimationMode),
      ], ["AnimationBlendTime", String(r.int(0, 10))]]);
      doc.close("AnimationState");
    }
    doc.close(drawTag);
    if (o.drawFragment) this.xinclude(doc, rel, o.drawFragment);
    doc.close("Draws");

    doc.open("Body");
    doc.leaf("ActiveBody", [["id", "ModuleTag_Body"], [
      "MaxHealth",
      w.num(doc, `HEALTH:${kind}`, String(r.int(2, 60) * 50)),
    ]]);
    doc.close("Body");

    doc.open("Behaviors");
    if (o.weapons.main) {
      doc.open("WeaponSetUpdate", [["id", "ModuleTag_WeaponSetUpdate"]]);
      const slot = r.chance(0.6) ? "WeaponSlotTurret" : "WeaponSlotHardpoint";
      doc.open(slot, [["ID", "1"], r.chance(0.3) && ["AllowInterleavedFiring", "true"]]);
      doc.leaf("Weapon", [["Ordering", "PRIMARY_WEAPON"], ["Template", doc.a(o.weapons.main, r.chance(0.1))]]);
      if (o.weapons.secondary) {
        doc.leaf("Weapon", [["Ordering", "SECONDARY_WEAPON"], ["Template", doc.a(o.weapons.secondary)]]);
      }
      if (slot === "WeaponSlotTurret") {
        doc.leaf("TurretSettings", [
          ["TurretTurnRate", `${r.int(60, 360)}d`],
          ["TurretPitchRate", `${r.int(30, 180)}d`],
          ["AllowsPitch", "true"],
        ]);
      }
      doc.close(slot);
      if (o.weapons.vet) {
        doc.open("WeaponSlotHardpoint", [["ID", "2"]]);
        doc.leaf("Weapon", [["Ordering", "TERTIARY_WEAPON"], ["Template", doc.a(o.weapons.vet)]]);
        doc.close("WeaponSlotHardpoint");
      }
      doc.close("WeaponSetUpdate");
    }
    doc.open("FXListBehavior", [["id", "ModuleTag_FXList"]]);
    doc.leaf("DieMuxData", [["DeathTypes", "ALL"], ["DeathTypesForbidden", "SUPERNATURAL"]]);
    doc.leaf("Event", [["Index", "onDeath"], ["FX", doc.a(o.fx.death)]]);
    doc.leaf("Event", [["Index", "onDamaged"], ["FX", doc.a(o.fx.damaged)]]);
    if (r.chance(0.15)) doc.leaf("Event", [["Index", "onReallyDamaged"], ["FX", doc.a(r.pick(this.v.fx))]]);
    doc.close("FXListBehavior");
    if (o.ocls.death) {
      doc.open("CreateObjectDie", [["id", "ModuleTag_CreateObjectDie"], ["CreationList", doc.a(o.ocls.death)]]);
      doc.leaf("DieMuxData", [["DeathTypes", "ALL"]]);
      if (o.upgrades.ability && r.chance(0.4)) doc.text("UpgradeRequired", doc.c(o.upgrades.ability));
      doc.close("CreateObjectDie");
    }
    doc.open("FireWeaponWhenDead", [["id", "ModuleTag_DeathWeapon"], ["DeathWeapon", doc.a(o.weapons.death)], [
      "InitiallyActive",
      "true",
    ]], true);
    doc.leaf("DieMuxData", [["DeathTypes", "ALL"], ["DeathTypesForbidden", "SUPERNATURAL"]]);
    doc.close("FireWeaponWhenDead");
    if (o.specialPowers.length) {
      const sp = o.specialPowers[0];
      doc.leaf("SpecialPower", [["id", "ModuleTag_SpecialPower"], ["SpecialPowerTemplate", doc.a(sp)], [
        "UpdateModuleStartsAttack",
        "true",
      ], r.chance(0.3) && ["InitiateSound", doc.a(ev.get("VoiceAttack")!)]], true);
      const module = o.drawFragment?.slot === "draw" && r.chance(0.7) ? o.drawFragment.modules[0] : "ModuleTag_Draw";
      doc.leaf("ActivateModuleSpecialAbilityUpdate", [
        ["id", "ModuleTag_AbilityUpdate"],
        ["SpecialPowerTemplate", doc.a(o.specialPowers[o.specialPowers.length - 1])],
        ["ModuleId", doc.poid(module)],
        ["UnpackTime", `${r.int(0, 3)}s`],
      ], true);
    }
    if (r.chance(0.5) || o.upgrades.ability) {
      doc.open("StatusBitsUpgrade", [["id", "ModuleTag_VeterancyUpgrade"], [
        "StatusToSet",
        w.flags(ENUMS.ObjectStatus, 1, 2),
      ]]);
      doc.text("TriggeredBy", doc.c(r.pick(this.v.veterancy)));
      if (o.upgrades.ability) doc.text("TriggeredBy", doc.c(o.upgrades.ability));
      doc.close("StatusBitsUpgrade");
    }
    if (o.armorUpgraded) {
      doc.open("ArmorUpgrade", [["id", "ModuleTag_ArmorUpgrade"], ["ArmorSetFlag", "PLAYER_UPGRADE"]]);
      doc.text("TriggeredBy", doc.c(o.upgrades.research ?? o.upgrades.ability ?? r.pick(this.v.veterancy)));
      doc.close("ArmorUpgrade");
    }
    if (o.weapons.vet) {
      doc.open("WeaponSetUpgrade", [["id", "ModuleTag_WeaponSetUpgrade"], [
        "WeaponSetFlag",
        r.pick(ENUMS.WeaponSetFlag),
      ]]);
      for (const u of r.sample(this.v.veterancy, r.int(1, 2))) doc.text("TriggeredBy", doc.c(u));
      if (o.upgrades.ability) doc.text("TriggeredBy", doc.c(o.upgrades.ability));
      doc.close("WeaponSetUpgrade");
    }
    if (o.upgrades.ability || o.upgrades.research || r.chance(0.2)) {
      doc.open("ModelConditionUpgrade", [["id", "ModuleTag_ModelConditionUpgrade"], [
        "AddConditionFlags",
        r.pick(["USER_1", "USER_2", "POWER_PLANT_UPGRADED"]),
      ]]);
      doc.text("TriggeredBy", doc.c(o.upgrades.ability ?? o.upgrades.research ?? r.pick(this.v.veterancy)));
      doc.close("ModelConditionUpgrade");
    }
    if (kind === "structure" || r.chance(0.3)) {
      doc.open("SlowDeath", [["id", "ModuleTag_SlowDeath"], ["DestructionDelay", `${r.int(1, 6)}s`], [
        "SinkDelay",
        `${r.int(0, 3)}s`,
      ], ["SinkRate", r.real(0, 5)]], true);
      doc.leaf("FX", [["Type", "INITIAL"], ["List", doc.a(o.fx.death)]]);
      doc.leaf("FX", [["Type", "FINAL"], ["List", doc.a(r.skewed(this.plan.common.fx))]]);
      if (r.chance(0.5)) doc.leaf("OCL", [["Type", "FINAL"], ["List", doc.a(r.pick(this.plan.common.ocls))]]);
      doc.close("SlowDeath");
    }
    doc.leaf("PhysicsBehavior", [
      ["id", "ModuleTag_Physics"],
      ["Mass", r.real(1, 200)],
      ["AerodynamicFriction", r.real(0, 2, 2)],
      ["ForwardFriction", r.real(0, 2, 2)],
      ["CenterOfMassOffset", r.real(-2, 2, 2)],
    ], true);
    if (o.behaviorFragment) this.xinclude(doc, rel, o.behaviorFragment);
    doc.close("Behaviors");
    if (kind !== "structure") {
      doc.open("AI");
      doc.leaf("AIUpdate", [["id", "ModuleTag_AI"], ["AutoAcquireEnemiesWhenIdle", r.pick(ENUMS.AutoAcquire)], [
        "MoodAttackCheckRate",
        String(r.int(100, 500)),
      ]]);
      doc.close("AI");
    }
    doc.open("Geometry", [
      ["IsSmall", kind === "infantry" ? "true" : "false"],
      kind === "infantry" && ["IsInfantry", "true"],
    ]);
    for (let g = kind === "structure" ? r.int(2, 5) : r.int(1, 2); g > 0; g--) {
      doc.open("Shape", [["Type", r.pick(ENUMS.ShapeType)], ["MajorRadius", r.real(2, 40)], [
        "MinorRadius",
        r.real(2, 30),
      ], ["Height", r.real(2, 30)]], true);
      doc.leaf("Offset", [["X", r.real(-10, 10)], ["Y", r.real(-10, 10)], ["Z", "0"]]);
      doc.close("Shape");
    }
    doc.close("Geometry");
    doc.open("ClientBehaviors");
    doc.open("AnimationSoundClientBehavior", [["id", "ModuleTag_AnimationSounds"], ["MaxUpdateRangeCap", "800"]]);
    const sounds = [...ev.values()];
    for (const anim of o.art.anims) {
      for (let k = r.int(1, 3); k > 0; k--) {
        doc.leaf("AnimationSound", [["Sound", doc.a(r.pick(sounds))], ["Animation", doc.a(anim)], [
          "Frames",
          range(r.int(1, 3)).map(() => r.int(1, 60)).join(" "),
        ]]);
      }
    }
    doc.close("AnimationSoundClientBehavior");
    doc.open("ModelConditionAudioLoopClientBehavior", [["id", "ModuleTag_AudioLoops"]]);
    for (let k = r.int(1, 3); k > 0; k--) {
      doc.leaf("ModelConditionSound", [["Sound", doc.a(r.pick(sounds))], [
        "RequiredFlags",
        w.flags(ENUMS.ModelCondition.slice(2, 12), 1, 2),
      ], r.chance(0.4) && ["ExcludedFlags", "DYING"]]);
    }
    doc.close("ModelConditionAudioLoopClientBehavior");
    doc.close("ClientBehaviors");
    doc.close("GameObject");
    doc.blank();

    if (o.projectile) {
      doc.asset("GameObject");
      doc.open("GameObject", [
        ["id", o.projectile.id],
        ["inheritFrom", doc.inherit(this.plan.bases.byKey.get("BaseProjectile")!.target)],
        ["KindOf", "PROJECTILE NO_COLLIDE"],
        ["EditorSorting", "SYSTEM"],
      ], true);
      if (o.projectileLocomotor) {
        doc.leaf("LocomotorSet", [["Locomotor", doc.a(o.projectileLocomotor)], ["Condition", "NORMAL"], [
          "Speed",
          r.real(100, 600),
        ]]);
      }
      doc.open("Draws");
      doc.open("ScriptedModelDraw", [["id", "ModuleTag_Draw"]]);
      doc.open("ModelConditionState", [["ParseCondStateType", "PARSE_DEFAULT"]]);
      doc.leaf("Model", [["Name", doc.a(o.art.prj!)]]);
      doc.leaf("ParticleSysBone", [
        ["BoneName", "FX_Exhaust"],
        ["FXParticleSystemTemplate", doc.a(r.pick(o.particles))],
        ["FollowBone", "true"],
      ]);
      doc.close("ModelConditionState");
      doc.close("ScriptedModelDraw");
      doc.close("Draws");
      doc.open("Behaviors");
      doc.leaf("PhysicsBehavior", [["id", "ModuleTag_Physics"], ["Mass", r.real(0.1, 5)]]);
      doc.open("FXListBehavior", [["id", "ModuleTag_FXList"]]);
      doc.leaf("Event", [["Index", "onDeath"], ["FX", doc.a(o.fx.impact)]]);
      doc.close("FXListBehavior");
      doc.close("Behaviors");
      doc.close("GameObject");
      doc.blank();
    }
    if (o.hulk) {
      doc.asset("GameObject");
      doc.open("GameObject", [["id", o.hulk.id], ["KindOf", "HULK INERT"], ["EditorSorting", "SYSTEM"]], true);
      doc.open("Draws");
      doc.open("ScriptedModelDraw", [["id", "ModuleTag_Draw"]]);
      doc.open("ModelConditionState", [["ParseCondStateType", "PARSE_DEFAULT"]]);
      doc.leaf("Model", [["Name", doc.a(o.art.dmg ?? o.art.skn)]]);
      doc.close("ModelConditionState");
      doc.close("ScriptedModelDraw");
      doc.close("Draws");
      doc.open("Behaviors");
      doc.open("SlowDeath", [["id", "ModuleTag_SlowDeath"], ["DestructionDelay", `${r.int(3, 12)}s`], [
        "SinkRate",
        r.real(0.5, 3),
      ]]);
      doc.leaf("FX", [["Type", "INITIAL"], ["List", doc.a(o.fx.death)]]);
      if (r.chance(0.6)) doc.leaf("OCL", [["Type", "FINAL"], ["List", doc.a(r.pick(this.plan.common.ocls))]]);
      doc.close("SlowDeath");
      doc.close("Behaviors");
      doc.close("GameObject");
    }
    this.gameObjects.set(o.index, doc);
    return doc;
  }

  /** A header comment with a short change log, inserted after the XML declaration, as modders keep them. */
  private banner(doc: XmlDoc, o: ObjectPlan, file: string): void {
    const r = this.rng;
    const log = range(r.int(1, 6)).map((i) =>
      `\t${2008 + i}-${String(r.int(1, 12)).padStart(2, "0")}-${String(r.int(1, 28)).padStart(2, "0")}  ${
        r.pick(CHANGES)
      }`
    );
    doc.insertAfterDeclaration(
      `<!--\n\t${o.name} (${o.faction.name} ${o.kind}): ${file.replace(/\.xml$/, "")}\n${log.join("\n")}${
        log.length ? "\n" : ""
      }-->`,
    );
  }

  /** An old model condition state left in a comment, as modders do: text only, no references. */
  private commentedOutState(doc: XmlDoc, o: ObjectPlan): void {
    const r = this.rng;
    const pad = "\t\t\t\t";
    const lines = [
      `${pad}<!-- old damaged state, kept for reference`,
      `${pad}<ModelConditionState`,
      `${pad}\tParseCondStateType="PARSE_NORMAL"`,
      `${pad}\tConditionsYes="DAMAGED ${r.pick(ENUMS.ModelCondition.slice(2, 10))}">`,
      `${pad}\t<Model`,
      `${pad}\t\tName="${o.art.skn.id}_OLD" />`,
      ...range(r.int(3, 9)).map(() =>
        `${pad}\t<WeaponFireFXBone WeaponSlotID="1" WeaponSlotType="PRIMARY_WEAPON" BoneName="${r.pick(BONES)}" />`
      ),
      `${pad}</ModelConditionState>`,
      `${pad}-->`,
    ];
    for (const l of lines) doc.raw(l);
  }

  private weaponFile(o: ObjectPlan): XmlDoc {
    const r = this.rng;
    const rel = `${o.folder}/WeaponTemplate.xml`;
    const doc = this.begin();
    this.includes(doc, [["instance", this.baseInclude(rel, "BaseWeapons.xml")]]);
    const { main, vet, secondary, warhead, death } = o.weapons;
    const base = this.plan.bases.weapons;
    const cls = o.weaponClass;
    const ev = o.audio.events;
    if (main) {
      this.w.weapon(doc, main, {
        weaponClass: cls,
        inherit: r.chance(0.6) ? base.get(cls)! : base.get("")!,
        fireSound: ev.get("WeaponFire")!,
        fireFx: o.fx.muzzle,
        vetFx: o.fx.vetMuzzle,
        preAttackFx: r.chance(0.25) ? o.fx.muzzle : null,
        projectile: o.projectile,
        warhead,
        fireWeapon: secondary && r.chance(0.25) ? secondary : null,
        attachModule: r.chance(0.1) ? "ModuleTag_AbilityUpdate" : null,
      });
    }
    if (vet) {
      this.w.weapon(doc, vet, {
        weaponClass: cls,
        inherit: main,
        fireSound: ev.get("WeaponFire")!,
        fireFx: o.fx.vetMuzzle ?? o.fx.muzzle,
        projectile: o.projectile,
        warhead,
      });
    }
    if (secondary) {
      this.w.weapon(doc, secondary, {
        weaponClass: cls,
        inherit: base.get(cls)!,
        fireSound: r.chance(0.5) ? ev.get("WeaponFire")! : null,
        fireFx: o.fx.muzzle,
      });
    }
    if (warhead) {
      this.w.weapon(doc, warhead, {
        weaponClass: cls,
        inherit: r.chance(0.4) ? base.get("")! : null,
        fireFx: o.fx.impact,
        requiredUpgrade: r.chance(0.3) ? o.upgrades.ability : null,
      });
    }
    this.w.weapon(doc, death, {
      weaponClass: "CANNON",
      inherit: r.chance(0.5) ? base.get("")! : null,
      fireFx: r.chance(0.6) ? o.fx.death : r.skewed(this.plan.common.fx),
      fireWeapon: r.chance(0.3) ? r.pick(this.plan.common.weapons) : null,
    });
    return doc;
  }

  private fxFile(o: ObjectPlan): XmlDoc {
    const r = this.rng;
    const doc = this.begin();
    const own = o.particles;
    const commonP = this.plan.common.particles;
    const ev = o.audio.events;
    const pickParticles = (lo: number, hi: number, common: number) => {
      const list = r.sample(own, r.int(lo, hi));
      if (r.chance(common)) list.push(r.skewed(commonP));
      return list;
    };
    this.w.fxList(doc, o.fx.muzzle, {
      sound: r.chance(0.5) ? ev.get("WeaponFire")! : null,
      particles: pickParticles(2, 4, 0.2),
    });
    this.w.fxList(doc, o.fx.impact, {
      sound: ev.get("Impact") ?? ev.get("WeaponFire")!,
      particles: pickParticles(2, 4, 0.4),
    });
    this.w.fxList(doc, o.fx.death, { sound: ev.get("Die")!, particles: pickParticles(3, 5, 0.6) });
    this.w.fxList(doc, o.fx.damaged, { sound: null, particles: pickParticles(1, 3, 0.4) });
    if (o.fx.vetMuzzle) {
      this.w.fxList(doc, o.fx.vetMuzzle, {
        sound: null,
        particles: pickParticles(2, 4, 0.2),
        inherit: r.chance(0.3) ? o.fx.muzzle : null,
      });
    }
    return doc;
  }

  private particleFile(o: ObjectPlan): XmlDoc {
    const r = this.rng;
    const rel = `${o.folder}/FXParticleSystemTemplate.xml`;
    const doc = this.begin();
    this.includes(doc, [["instance", this.baseInclude(rel, "BaseParticles.xml")]]);
    o.particles.forEach((p, i) => {
      const inherit = r.chance(0.2)
        ? r.pick(this.plan.bases.particles)
        : i > 0 && r.chance(0.1)
        ? o.particles[i - 1]
        : null;
      const attached = r.chance(0.1) ? o.particles[(i + 1) % o.particles.length] : null;
      this.w.particleSystem(doc, p, this.texture(), inherit, attached === p ? null : attached);
    });
    return doc;
  }

  private audioEventFile(o: ObjectPlan): XmlDoc {
    const r = this.rng;
    const rel = `${o.folder}/AudioEvent.xml`;
    const doc = this.begin();
    this.includes(doc, [["instance", this.baseInclude(rel, "BaseAudio.xml")]]);
    const baseFor = (e: string): Target => {
      if (r.chance(0.06)) return this.v.audioBase;
      const b = this.plan.bases.audio;
      if (e.startsWith("Voice")) return b.get("BaseUnitVoice")!;
      if (e === "WeaponFire") return b.get("BaseWeaponSound")!;
      if (e === "Impact" || e === "Die") return b.get("BaseExplosionSound")!;
      if (e === "MoveLoop") return b.get("BaseMoveLoop")!;
      return b.get("BaseModSound")!;
    };
    for (const [name, t] of o.audio.events) {
      this.w.audioEvent(doc, t, {
        inherit: baseFor(name),
        files: o.audio.files.get(name)!,
        voice: name.startsWith("Voice"),
      });
    }
    if (o.audio.multisound) {
      doc.asset("Multisound");
      doc.open("Multisound", [["id", o.audio.multisound.id], ["Volume", String(r.int(60, 100))], [
        "Type",
        "UI PLAYER VOICE",
      ]]);
      doc.text("Subsound", doc.c(o.audio.events.get("VoiceSelect")!), [["Weight", "3"]]);
      doc.text("Subsound", doc.c(o.audio.events.get("VoiceCreate")!, r.chance(0.3)));
      doc.close("Multisound");
    }
    return doc;
  }

  private audioFileFile(o: ObjectPlan): XmlDoc {
    const doc = this.begin();
    for (const list of o.audio.files.values()) {
      for (const f of list) this.w.audioFile(doc, f, `${o.faction.name}\\${o.id}`);
    }
    return doc;
  }

  private commandFile(o: ObjectPlan): XmlDoc {
    const r = this.rng;
    const rel = `${o.folder}/LogicCommandSet.xml`;
    const doc = this.begin();
    this.includes(doc, [["instance", this.baseInclude(rel, "BaseCommandSets.xml")]]);
    const c = o.commands;
    doc.asset("LogicCommand");
    doc.open("LogicCommand", [["Type", o.kind === "structure" ? "STRUCTURE_BUILD" : "UNIT_BUILD"], [
      "id",
      c.construct.id,
    ]]);
    doc.text("Object", doc.c(o.object));
    doc.close("LogicCommand");
    if (c.special) {
      doc.asset("LogicCommand");
      doc.open("LogicCommand", [["Type", "SPECIAL_POWER"], ["id", c.special.id]]);
      doc.text("SpecialPower", doc.c(o.specialPowers[0]));
      doc.close("LogicCommand");
    }
    if (c.upgrade) {
      doc.asset("LogicCommand");
      doc.open("LogicCommand", [["Type", "OBJECT_UPGRADE"], ["id", c.upgrade.id]]);
      doc.text("Upgrade", doc.c(o.upgrades.ability!));
      doc.close("LogicCommand");
    }
    doc.blank();
    doc.asset("LogicCommandSet");
    const baseSet = this.plan.bases.commandSets.get(o.kind === "structure" ? "structure" : "unit")!;
    doc.open("LogicCommandSet", [["id", o.commandSet.id], r.chance(0.35) && ["inheritFrom", doc.inherit(baseSet)]]);
    if (c.special) doc.text("Cmd", doc.c(c.special));
    if (c.upgrade) doc.text("Cmd", doc.c(c.upgrade));
    for (const b of o.builds) doc.text("Cmd", doc.c(b.commands.construct));
    for (const v of r.sample(this.v.commands, r.int(1, 3))) doc.text("Cmd", doc.c(v));
    doc.close("LogicCommandSet");
    if (o.buttons) {
      doc.blank();
      doc.asset("UnitAbilityButtonTemplate");
      doc.open("UnitAbilityButtonTemplate", [["id", o.buttons.id]]);
      doc.leaf("Slot", [["LogicCommand", doc.a(c.special!)], ["Index", "1"]]);
      if (c.upgrade) doc.leaf("Slot", [["LogicCommand", doc.a(c.upgrade)], ["Index", "2"]]);
      doc.close("UnitAbilityButtonTemplate");
    }
    return doc;
  }

  private armorFile(o: ObjectPlan): XmlDoc {
    const r = this.rng;
    const rel = `${o.folder}/Armor.xml`;
    const doc = this.begin();
    this.includes(doc, [["instance", this.baseInclude(rel, "BaseArmor.xml")]]);
    this.w.armor(doc, o.armor, r.chance(0.6) ? this.plan.bases.armor.get(o.kind)! : null);
    if (o.armorUpgraded) this.w.armor(doc, o.armorUpgraded, o.armor);
    return doc;
  }

  private locomotorFile(o: ObjectPlan): XmlDoc {
    const r = this.rng;
    const rel = `${o.folder}/Locomotor.xml`;
    const doc = this.begin();
    this.includes(doc, [["instance", this.baseInclude(rel, "BaseLocomotors.xml")]]);
    const base = this.plan.bases.locomotors;
    if (o.locomotor) this.w.locomotor(doc, o.locomotor, o.kind, r.chance(0.5) ? base.get(o.kind)! : null);
    if (o.projectileLocomotor) {
      this.w.locomotor(doc, o.projectileLocomotor, "projectile", r.chance(0.5) ? base.get("projectile")! : null);
    }
    return doc;
  }

  private specialPowerFile(o: ObjectPlan): XmlDoc {
    const r = this.rng;
    const doc = this.begin();
    o.specialPowers.forEach((sp, i) => {
      doc.asset("SpecialPowerTemplate");
      const attrs: Attr[] = [
        ["id", sp.id],
        i > 0 && r.chance(0.5) && ["inheritFrom", doc.inherit(o.specialPowers[0])],
        ["TargetType", r.pick(ENUMS.SpecialPowerTargetType)],
        ["Flags", this.w.flags(ENUMS.SpecialPowerFlag, 1, 3)],
        ["ReloadTime", `${r.int(5, 240)}s`],
        r.chance(0.5) && ["RadiusCursorRadius", r.real(20, 200)],
        r.chance(0.5) && ["InitiateSound", doc.a(o.audio.events.get("VoiceAttack")!)],
        r.chance(0.2) && ["InitiateAtLocationSound", doc.a(r.skewed(this.plan.common.audioEvents))],
        ["WaypointModeTerminal", "false"],
      ];
      if (o.upgrades.research && r.chance(0.4)) {
        doc.open("SpecialPowerTemplate", attrs, true);
        doc.open("GameDependency");
        doc.text("RequiredUpgrade", doc.c(o.upgrades.research));
        doc.close("GameDependency");
        doc.close("SpecialPowerTemplate");
      } else {
        doc.leaf("SpecialPowerTemplate", attrs, true);
      }
      doc.blank();
    });
    return doc;
  }

  private upgradeFile(o: ObjectPlan): XmlDoc {
    const r = this.rng;
    const doc = this.begin();
    for (const [u, type] of [[o.upgrades.ability, "OBJECT"], [o.upgrades.research, "PLAYER"]] as const) {
      if (!u) continue;
      doc.asset("UpgradeTemplate");
      doc.leaf("UpgradeTemplate", [
        ["id", u.id],
        ["Type", type],
        ["BuildTime", `${r.int(5, 60)}s`],
        ["BuildCost", String(r.int(1, 30) * 100)],
        r.chance(0.6) &&
        [
          "ResearchSound",
          doc.a(r.chance(0.5) ? o.audio.events.get("VoiceCreate")! : r.skewed(this.plan.common.audioEvents)),
        ],
        r.chance(0.3) && ["UnitSpecificSound", doc.a(o.audio.events.get("VoiceSelect")!)],
        ["DisplayName", `Upgrade:${u.id}`],
        ["IconImage", `Button_${u.id}`],
      ], true);
    }
    return doc;
  }

  private oclFile(o: ObjectPlan): XmlDoc {
    const r = this.rng;
    const doc = this.begin();
    const debris = this.plan.common.debris;
    if (o.ocls.death) {
      const groups: Target[][] = [[o.hulk ?? r.skewed(debris)]];
      if (r.chance(0.4)) groups.push(r.sample(debris, r.int(1, 2)));
      if (r.chance(0.15)) groups.push([r.pick(this.v.debris)]);
      this.w.ocl(doc, o.ocls.death, groups);
    }
    if (o.ocls.spawn) this.w.ocl(doc, o.ocls.spawn, [[o.projectile ?? o.hulk ?? r.skewed(debris)]]);
    return doc;
  }

  private artHub(o: ObjectPlan): XmlDoc {
    const rel = `${o.folder}/W3X.xml`;
    const doc = this.begin();
    this.includes(doc, o.art.files.map((a) => ["all", this.artSource(rel, a)] as const));
    return doc;
  }
}
