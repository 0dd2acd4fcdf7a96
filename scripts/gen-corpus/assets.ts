/**
 * Writers for single assets (one top-level element each), shared by the per-object files, the common
 * files and the base objects. Every reference goes through `doc.a` / `doc.c` / `doc.inherit` so it is
 * counted; numbers go through `num`, which sometimes writes a `$DEFINE` or an `=$DEFINE …` expression.
 */
import type { GenContext } from "./context.ts";
import type { ModPlan } from "./plan.ts";
import { ENUMS } from "./schema-table.ts";
import type { Target, XmlDoc } from "./xml.ts";

export const XAI_NS = "uri:ea.com:eala:asset:instance";

export class AssetWriter {
  constructor(
    readonly ctx: GenContext,
    readonly plan: ModPlan,
  ) {}

  get rng() {
    return this.ctx.rng;
  }

  /** A number, or (with probability `p`) a define of `category` as `$NAME` or `=$NAME op`. */
  num(doc: XmlDoc, category: string, literal: string, p = 0.3): string {
    const names = this.plan.definesByCategory.get(category);
    if (!names || !this.rng.chance(p)) return literal;
    const name = this.rng.pick(names);
    return this.rng.chance(0.7)
      ? doc.def(name)
      : doc.expr(name, this.rng.pick(["* 2", "+ 5", "- 10", "* 0.5", "/ 2", "* 1.25"]));
  }

  flags(values: readonly string[], lo: number, hi: number): string {
    return this.rng.sample(values, this.rng.int(lo, hi)).join(" ");
  }

  rv(doc: XmlDoc, name: string, lo: number, hi: number): void {
    const a = this.rng.real(lo, hi, 2);
    const b = this.rng.real(Number(a), Number(a) + (hi - lo) / 2, 2);
    doc.leaf(name, [["Low", a], ["High", b]]);
  }

  particleSystem(doc: XmlDoc, t: Target, texture: Target, inherit: Target | null, attached: Target | null): void {
    const r = this.rng;
    doc.asset("FXParticleSystemTemplate");
    doc.open("FXParticleSystemTemplate", [
      ["id", t.id],
      inherit && ["inheritFrom", doc.inherit(inherit)],
      ["ParticleTexture", doc.a(texture, r.chance(0.08))],
      ["PerParticleAttachedSystem", attached ? doc.a(attached) : ""],
      ["Priority", r.pick(ENUMS.ParticlePriority)],
      ["Type", r.pick(ENUMS.ParticleType)],
      ["SystemLifetime", String(r.int(1, 60))],
      ["SortLevel", String(r.int(0, 3))],
      ["IsParticleUpTowardsEmitter", r.pick(["true", "false"])],
      r.chance(0.3) && ["IsOneShot", "true"],
    ], true);
    this.rv(doc, "Lifetime", 10, 60);
    this.rv(doc, "Size", 1, 40);
    if (r.chance(0.5)) this.rv(doc, "SystemLifetimeRange", 1, 60);
    this.rv(doc, "BurstDelay", 1, 10);
    this.rv(doc, "BurstCount", 1, 20);
    doc.open("Colors");
    const frames = r.int(3, 7);
    for (let f = 0; f < frames; f++) {
      doc.open("Color", [["Frame", String(f + 1)], ["RelativeAge", r.real(f * 25, f * 25 + 25, 4)]]);
      doc.leaf("Color", [["r", r.real(0, 1, 6)], ["g", r.real(0, 1, 6)], ["b", r.real(0, 1, 6)]]);
      doc.close("Color");
    }
    this.rv(doc, "ColorScale", 0, 5);
    doc.close("Colors");
    doc.open("Physics");
    doc.open("Default", [["Gravity", r.real(-0.5, 0.1, 3)]]);
    this.rv(doc, "VelocityDamping", 0.8, 1);
    doc.close("Default");
    doc.close("Physics");
    doc.open("Draw");
    doc.leaf("Gpu", [
      ["Shader", r.pick(["gpuparticle.fx", "gpuparticledistort.fx", "gpuparticleadditive.fx"])],
      ["SpeedMultiplier", r.real(0.5, 2, 2)],
      ["MiscValue1", r.real(0, 1, 2)],
      ["MiscValue2", r.real(0, 1, 2)],
    ]);
    doc.close("Draw");
    doc.open("Volume");
    doc.leaf("Sphere", [["IsHollow", r.pick(["true", "false"])], ["Radius", r.real(0, 20, 1)]]);
    doc.close("Volume");
    doc.open("Velocity");
    doc.open("Ortho");
    doc.open("Position");
    this.rv(doc, "x", -5, 5);
    this.rv(doc, "y", -5, 5);
    this.rv(doc, "z", 0, 8);
    doc.close("Position");
    doc.close("Ortho");
    doc.close("Velocity");
    doc.open("Update");
    doc.open("Default");
    this.rv(doc, "SizeRate", 0, 3);
    this.rv(doc, "SizeRateDamping", 0.9, 1);
    this.rv(doc, "AngleZ", -7, 7);
    this.rv(doc, "AngularRateZ", -0.1, 0.1);
    this.rv(doc, "AngularDamping", 0.9, 1);
    doc.close("Default");
    doc.close("Update");
    doc.close("FXParticleSystemTemplate");
    doc.blank();
  }

  fxList(
    doc: XmlDoc,
    t: Target,
    parts: { sound: Target | null; particles: readonly Target[]; inherit?: Target | null },
  ): void {
    const r = this.rng;
    doc.asset("FXList");
    doc.open("FXList", [["id", t.id], parts.inherit && ["inheritFrom", doc.inherit(parts.inherit)]]);
    doc.open("NuggetList");
    if (parts.sound) doc.leaf("Sound", [["Value", doc.a(parts.sound, r.chance(0.1))]]);
    for (const p of parts.particles) {
      if (r.chance(0.6)) {
        doc.open("ParticleSystem", [
          ["Particle", doc.a(p)],
          ["Count", String(r.int(1, 3))],
          ["OrientToObject", "true"],
          r.chance(0.3) && ["CreateAtGroundHeight", "true"],
          r.chance(0.2) && ["Ricochet", "true"],
          r.chance(0.3) && ["UseTarget", "true"],
          r.chance(0.3) && ["CreateOverrideBone", "FX_Muzzle"],
        ], true);
        doc.leaf("Offset", [["X", r.real(-5, 5)], ["Y", r.real(-5, 5)], ["Z", r.real(0, 10)]]);
        if (r.chance(0.5)) this.rv(doc, "Radius", 0, 20);
        if (r.chance(0.4)) this.rv(doc, "Height", 0, 15);
        if (r.chance(0.4)) this.rv(doc, "InitialDelay", 0, 300);
        doc.close("ParticleSystem");
      } else {
        doc.leaf("ParticleSystem", [["Particle", doc.a(p)]]);
      }
    }
    if (r.chance(0.5)) {
      doc.open("LightPulse", [["Radius", r.real(10, 80)], ["IncreaseTime", `${r.int(0, 200)}ms`], [
        "DecreaseTime",
        `${r.int(100, 900)}ms`,
      ]]);
      doc.leaf("Color", [["r", String(r.int(128, 255))], ["g", String(r.int(64, 255))], ["b", String(r.int(0, 200))]]);
      doc.close("LightPulse");
    }
    if (r.chance(0.3)) doc.leaf("ViewShake", [["Type", r.pick(ENUMS.ViewShakeType)]]);
    doc.close("NuggetList");
    doc.close("FXList");
    doc.blank();
  }

  weapon(
    doc: XmlDoc,
    t: Target,
    w: {
      readonly weaponClass: string;
      readonly inherit?: Target | null;
      readonly fireSound?: Target | null;
      readonly fireFx?: Target | null;
      readonly vetFx?: Target | null;
      readonly preAttackFx?: Target | null;
      readonly projectile?: Target | null;
      readonly warhead?: Target | null;
      readonly fireWeapon?: Target | null;
      readonly requiredUpgrade?: Target | null;
      readonly attachModule?: string | null;
    },
  ): void {
    const r = this.rng;
    doc.asset("WeaponTemplate");
    doc.open("WeaponTemplate", [
      ["id", t.id],
      w.inherit && ["inheritFrom", doc.inherit(w.inherit, r.chance(0.2))],
      ["AttackRange", this.num(doc, `RANGE:${w.weaponClass}`, r.real(50, 400))],
      r.chance(0.8) && ["MinimumAttackRange", r.real(0, 40)],
      r.chance(0.6) && ["RangeBonusMinHeight", r.real(0, 30)],
      r.chance(0.6) && ["RangeBonus", r.real(0, 60)],
      r.chance(0.7) && ["RequestAssistRange", r.real(50, 300)],
      ["WeaponSpeed", r.real(100, 999)],
      r.chance(0.8) && ["MinWeaponSpeed", r.real(100, 500)],
      r.chance(0.8) && ["MaxWeaponSpeed", r.real(500, 999)],
      r.chance(0.7) && ["ScatterRadius", r.real(0, 30)],
      r.chance(0.45) && ["ScatterLength", r.real(0, 30)],
      r.chance(0.45) && ["ScatterIndependently", "true"],
      ["AcceptableAimDelta", `${r.int(0, 30)}d`],
      r.chance(0.6) && ["AimDirection", `${r.int(0, 180)}d`],
      r.chance(0.8) && ["IdleAfterFiringDelaySeconds", `${r.real(0, 2)}s`],
      r.chance(0.6) && ["HoldAfterFiringDelaySeconds", `${r.real(0, 2)}s`],
      r.chance(0.6) && ["WeaponRecoil", `${r.int(0, 20)}d`],
      r.chance(0.7) && ["MinTargetPitch", `${r.int(-90, 0)}d`],
      r.chance(0.7) && ["MaxTargetPitch", `${r.int(0, 90)}d`],
      r.chance(0.6) && ["ShotsPerBarrel", String(r.int(1, 4))],
      r.chance(0.6) && ["ContinueAttackRange", r.real(50, 200)],
      r.chance(0.8) && ["ClipSize", String(r.int(1, 8))],
      r.chance(0.6) && ["CanFireWhileMoving", "true"],
      w.fireSound && ["FireSound", doc.a(w.fireSound, r.chance(0.15))],
      w.fireFx && ["FireFX", doc.a(w.fireFx)],
      w.vetFx && ["FireVeteranFX", doc.a(w.vetFx)],
      w.preAttackFx && ["PreAttackFX", doc.a(w.preAttackFx)],
    ], true);
    doc.leaf("FiringDuration", [["MinSeconds", `${r.real(0, 1)}s`], ["MaxSeconds", `${r.real(1, 2)}s`]]);
    if (r.chance(0.6)) {
      doc.leaf("ClipReloadTime", [["MinSeconds", `${r.real(1, 5)}s`], ["MaxSeconds", `${r.real(5, 8)}s`]]);
    }
    doc.open("Nuggets");
    if (w.projectile || w.warhead) {
      doc.leaf("ProjectileNugget", [
        w.projectile && ["ProjectileTemplate", doc.a(w.projectile)],
        w.warhead && ["WarheadTemplate", doc.a(w.warhead)],
      ]);
    } else {
      const dmg: (readonly [string, string])[] = [
        ["Damage", this.num(doc, `DAMAGE:${w.weaponClass}`, r.real(10, 400))],
        ["Radius", r.real(0, 40)],
        ["DamageType", r.pick(ENUMS.DamageType)],
        ["DeathType", r.pick(ENUMS.DeathType.slice(0, 7))],
      ];
      if (w.requiredUpgrade) {
        doc.open("DamageNugget", dmg);
        doc.text("RequiredUpgrade", doc.c(w.requiredUpgrade));
        doc.close("DamageNugget");
      } else {
        doc.leaf("DamageNugget", dmg);
      }
    }
    if (w.fireWeapon) doc.leaf("FireWeaponNugget", [["WeaponName", doc.a(w.fireWeapon)]]);
    if (w.attachModule) {
      doc.leaf("AttachNugget", [["AttachModuleId", doc.poid(w.attachModule)], ["Radius", r.real(5, 20)]]);
    }
    doc.close("Nuggets");
    doc.close("WeaponTemplate");
    doc.blank();
  }

  audioEvent(
    doc: XmlDoc,
    t: Target,
    e: { readonly inherit: Target | null; readonly files: readonly Target[]; readonly voice: boolean },
  ): void {
    const r = this.rng;
    doc.asset("AudioEvent");
    doc.open("AudioEvent", [
      ["id", t.id],
      e.inherit && ["inheritFrom", doc.inherit(e.inherit, r.chance(0.7))],
      ["Volume", this.num(doc, "VOLUME", String(r.int(40, 100)), 0.25)],
      r.chance(0.5) && ["MinVolume", String(r.int(20, 40))],
      r.chance(0.4) && ["Limit", String(r.int(1, 4))],
      ["Priority", r.pick(ENUMS.AudioPriority)],
      ["Type", e.voice ? "UI PLAYER VOICE" : this.flags(ENUMS.AudioTypeFlag.slice(0, 7), 1, 3)],
      r.chance(0.5) && ["Control", this.flags(ENUMS.AudioControlFlag, 1, 2)],
      e.voice && ["SubmixSlider", "VOICE"],
    ], true);
    for (const f of e.files) doc.text("Sound", doc.c(f), r.chance(0.4) ? [["Weight", String(r.int(1, 10) * 100)]] : []);
    if (r.chance(0.4)) doc.leaf("PitchShift", [["Low", String(r.int(-10, 0))], ["High", String(r.int(0, 10))]]);
    if (r.chance(0.3)) doc.leaf("VolumeShift", [["Low", String(r.int(-20, 0))], ["High", "0"]]);
    for (
      const slider of e.voice
        ? ["VOICE", ...r.sample(["SOUNDFX", "MUSIC", "AMBIENT"], r.int(0, 2))]
        : r.sample(["SOUNDFX", "AMBIENT", "MOVIE"], r.int(1, 2))
    ) {
      doc.leaf("VolumeSliderMultiplier", [["Slider", slider], ["Multiplier", r.real(0.3, 1, 2)]]);
    }
    doc.close("AudioEvent");
  }

  audioFile(doc: XmlDoc, t: Target, folder: string): void {
    const r = this.rng;
    doc.asset("AudioFile");
    doc.leaf("AudioFile", [
      ["id", t.id],
      ["File", `AUDIO:Sounds\\${folder}\\${t.id}.wav`],
      r.chance(0.4) && ["PCSampleRate", r.pick(["22050", "44100"])],
      r.chance(0.4) && ["PCCompression", r.pick(ENUMS.PCCompression)],
      r.chance(0.1) && ["IsStreamedOnPC", "true"],
    ]);
  }

  texture(doc: XmlDoc, t: Target): void {
    const r = this.rng;
    doc.asset("Texture");
    doc.leaf("Texture", [
      ["id", t.id],
      ["File", `Textures\\fx\\${t.id.toLowerCase()}.tga`],
      ["OutputFormat", r.pick(ENUMS.TextureFormat)],
      r.chance(0.4) && ["GenerateMipMaps", "false"],
      r.chance(0.3) && ["AllowAutomaticResize", "false"],
    ]);
  }

  ocl(doc: XmlDoc, t: Target, creates: readonly (readonly Target[])[]): void {
    const r = this.rng;
    doc.asset("ObjectCreationList");
    doc.open("ObjectCreationList", [["id", t.id]], true);
    for (const group of creates) {
      doc.open("CreateObject", [
        ["Options", this.flags(ENUMS.OclOption, 1, 2)],
        ["Disposition", this.flags(ENUMS.OclDisposition, 1, 2)],
        r.chance(0.3) && ["Count", String(r.int(2, 5))],
        r.chance(0.3) && ["MinLifetime", `${r.int(1, 5)}s`],
        r.chance(0.3) && ["MaxLifetime", `${r.int(5, 15)}s`],
      ], true);
      for (const c of group) doc.text("CreateObject", doc.c(c));
      doc.close("CreateObject");
    }
    doc.close("ObjectCreationList");
    doc.blank();
  }

  armor(doc: XmlDoc, t: Target, inherit: Target | null): void {
    const r = this.rng;
    doc.asset("ArmorTemplate");
    doc.open("ArmorTemplate", [["id", t.id], inherit && ["inheritFrom", doc.inherit(inherit)], [
      "SideDamageScalar",
      `${r.int(90, 120)}%`,
    ], ["RearDamageScalar", `${r.int(100, 150)}%`]], true);
    for (const d of r.sample(ENUMS.DamageType, r.int(10, 18))) {
      doc.leaf("Armor", [["Damage", d], ["Percent", `${r.int(0, 20) * 10}%`]], true);
    }
    doc.close("ArmorTemplate");
    doc.blank();
  }

  locomotor(doc: XmlDoc, t: Target, kind: string, inherit: Target | null): void {
    const r = this.rng;
    const surfaces = kind === "aircraft" || kind === "projectile"
      ? "AIR"
      : kind === "ship"
      ? "WATER DEEP_WATER"
      : kind === "infantry"
      ? "GROUND RUBBLE"
      : "GROUND";
    const appearance = kind === "infantry"
      ? "TWO_LEGS"
      : kind === "aircraft" || kind === "projectile"
      ? r.pick(["THRUST", "WINGS"])
      : kind === "ship"
      ? r.pick(["BOAT", "HOVER"])
      : r.pick(["TREADS", "FOUR_WHEELS", "HOVER"]);
    doc.asset("LocomotorTemplate");
    doc.leaf("LocomotorTemplate", [
      ["id", t.id],
      inherit && ["inheritFrom", doc.inherit(inherit)],
      ["Surfaces", surfaces],
      ["Speed", this.num(doc, `SPEED:${kind}`, r.real(10, 120))],
      r.chance(0.6) && ["SpeedDamaged", r.real(10, 80)],
      ["TurnRate", `${r.int(60, 360)}d`],
      ["Acceleration", r.real(20, 400)],
      ["Braking", r.real(20, 400)],
      r.chance(0.5) && ["TurnTimeSeconds", `${r.real(0.1, 2)}s`],
      ["Appearance", appearance],
      r.chance(0.5) && ["BehaviorZ", r.pick(ENUMS.LocomotorBehaviorZ)],
      ["PitchStiffness", r.real(0.1, 1, 2)],
      ["RollStiffness", r.real(0.1, 1, 2)],
      ["PitchDamping", r.real(0.1, 1, 2)],
      ["RollDamping", r.real(0.1, 1, 2)],
      (kind === "aircraft" || kind === "projectile") && ["PreferredHeight", r.real(50, 200)],
    ], true);
    doc.blank();
  }
}
