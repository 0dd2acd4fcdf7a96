/**
 * The plan of the synthetic mod: every object, shared asset, base object, fragment, define and art
 * file, with its id registered before any file is written. Writers (`data.ts`, `art.ts`) only draw
 * references from the plan, so a reference to the mod always names an asset that exists.
 */
import type { GenContext } from "./context.ts";
import {
  CODENAMES,
  type Faction,
  FACTIONS,
  FX_WORDS,
  KIND_WEIGHTS,
  NOUNS,
  type ObjectKind,
  TEXTURE_WORDS,
  VANILLA,
  VOLUME_CLASSES,
  WEAPON_CLASSES,
} from "./names.ts";
import { FRAGMENT_ROOTS } from "./schema-table.ts";
import type { Target } from "./xml.ts";

/** Counts at a given scale (scale 1 ≈ a Corona-sized mod). */
export interface Sizes {
  readonly objects: number;
  readonly textures: number;
  readonly commonFx: number;
  readonly commonParticles: number;
  readonly commonAudio: number;
  readonly debris: number;
  readonly commonOcl: number;
  readonly commonWeapons: number;
  readonly defines: number;
  readonly inactiveXml: number;
  readonly inactiveArt: number;
}

/** How many of each thing to generate at `scale`. */
export function sizesFor(scale: number): Sizes {
  const n = (base: number, min: number) => Math.max(min, Math.round(base * scale));
  return {
    objects: n(600, 8),
    textures: n(800, 24),
    commonFx: n(40, 6),
    commonParticles: n(60, 8),
    commonAudio: n(30, 6),
    debris: n(12, 3),
    commonOcl: n(10, 3),
    commonWeapons: n(6, 3),
    defines: n(180, 24),
    inactiveXml: n(30, 2),
    inactiveArt: n(12, 1),
  };
}

export type ArtKind = "skn" | "skl" | "dmg" | "anim" | "prj" | "prop";
export type ArtForm = "two-letter" | "direct" | "relative";

export interface ArtFile {
  /** File name without extension (`AUAthenaCannon_SKN`); the file is `Art/<dir>/<name>.w3x`. */
  readonly name: string;
  readonly dir: string;
  readonly kind: ArtKind;
  /** The container (skn/dmg/prj/prop), hierarchy (skl) or animation (anim) the file defines. */
  readonly main: Target;
  /** Sub-object names of the meshes (`HULL`, `TURRET` …): mesh ids are `<main id>.<name>`. */
  readonly meshes: readonly string[];
  /** The hierarchy a container or animation names, or null. */
  readonly hierarchy: string | null;
  /** Relative share of the art bytes. */
  readonly weight: number;
  /** How the art hub includes it. */
  readonly form: ArtForm;
  readonly active: boolean;
}

export interface ObjectPlan {
  readonly index: number;
  readonly faction: Faction;
  readonly kind: ObjectKind;
  /** Folder name: "Allied Athena Cannon". */
  readonly name: string;
  readonly id: string;
  readonly group: "Units" | "Structures";
  /** `Data/Mod/Units/Allied Athena Cannon`. */
  readonly folder: string;
  readonly object: Target;
  readonly base: BaseObject;
  readonly projectile: Target | null;
  readonly hulk: Target | null;
  readonly weapons: {
    readonly main: Target | null;
    readonly vet: Target | null;
    readonly secondary: Target | null;
    readonly warhead: Target | null;
    readonly death: Target;
  };
  readonly weaponClass: string;
  readonly fx: {
    readonly muzzle: Target;
    readonly impact: Target;
    readonly death: Target;
    readonly damaged: Target;
    readonly vetMuzzle: Target | null;
  };
  readonly particles: readonly Target[];
  readonly audio: {
    readonly events: ReadonlyMap<string, Target>;
    readonly files: ReadonlyMap<string, readonly Target[]>;
    readonly multisound: Target | null;
  };
  readonly commands: { readonly construct: Target; readonly special: Target | null; readonly upgrade: Target | null };
  readonly commandSet: Target;
  readonly buttons: Target | null;
  readonly armor: Target;
  readonly armorUpgraded: Target | null;
  readonly locomotor: Target | null;
  readonly projectileLocomotor: Target | null;
  readonly specialPowers: readonly Target[];
  readonly upgrades: { readonly ability: Target | null; readonly research: Target | null };
  readonly ocls: { readonly death: Target | null; readonly spawn: Target | null };
  readonly art: {
    readonly skn: Target;
    readonly skl: Target;
    readonly dmg: Target | null;
    readonly prj: Target | null;
    readonly anims: readonly Target[];
    readonly files: readonly ArtFile[];
  };
  /** Set after all objects are planned: a structure of the same faction that builds this object. */
  producer: ObjectPlan | null;
  /** Units a structure builds (their construct commands go in its command set). */
  readonly builds: ObjectPlan[];
  drawFragment: Fragment | null;
  behaviorFragment: Fragment | null;
}

export interface BaseObject {
  readonly target: Target;
  /** File below `Data/BaseObjects/`. */
  readonly file: string;
  readonly parent: BaseObject | null;
  readonly kind: ObjectKind | null;
  readonly faction: Faction | null;
}

export interface Fragment {
  readonly root: string;
  readonly container: string;
  readonly slot: "draw" | "behavior";
  /** `Data/Includes/<root>.xml`. */
  readonly file: string;
  /** Module ids it brings in. */
  readonly modules: readonly string[];
}

export interface DefinePlan {
  readonly name: string;
  readonly value: string;
  /** `DAMAGE:CANNON`, `HEALTH:vehicle`, `VOLUME` … */
  readonly category: string;
}

export interface CommonPlan {
  readonly textures: readonly Target[];
  readonly particles: readonly Target[];
  readonly fx: readonly Target[];
  readonly audioEvents: readonly Target[];
  readonly audioFiles: readonly Target[];
  readonly debris: readonly Target[];
  readonly ocls: readonly Target[];
  readonly weapons: readonly Target[];
  readonly art: readonly ArtFile[];
  readonly headlight: Target;
  readonly muzzleFlash: Target;
}

export interface BasePlan {
  readonly objects: readonly BaseObject[];
  readonly byKey: ReadonlyMap<string, BaseObject>;
  readonly weapons: ReadonlyMap<string, Target>;
  readonly audio: ReadonlyMap<string, Target>;
  readonly armor: ReadonlyMap<ObjectKind, Target>;
  readonly locomotors: ReadonlyMap<string, Target>;
  readonly particles: readonly Target[];
  readonly commandSets: ReadonlyMap<string, Target>;
}

export interface ModPlan {
  readonly sizes: Sizes;
  readonly objects: readonly ObjectPlan[];
  readonly bases: BasePlan;
  readonly common: CommonPlan;
  readonly fragments: readonly Fragment[];
  readonly defines: readonly DefinePlan[];
  readonly definesByCategory: ReadonlyMap<string, readonly string[]>;
  readonly inactiveArt: readonly ArtFile[];
}

const KINDS: readonly ObjectKind[] = ["infantry", "vehicle", "aircraft", "ship", "structure"];
const CAP = (s: string) => s[0].toUpperCase() + s.slice(1);

/** Plans the whole mod. Registers every id in `ctx` (duplicates are bugs and throw). */
export function planMod(ctx: GenContext, scale: number): ModPlan {
  const sizes = sizesFor(scale);
  const { defines, definesByCategory } = planDefines(ctx, sizes.defines);
  const common = planCommon(ctx, sizes);
  const bases = planBases(ctx);
  const fragments = FRAGMENT_ROOTS.map(([root, type]): Fragment => ({
    root,
    container: root,
    slot: type === "DrawModules" ? "draw" : "behavior",
    file: `Data/Includes/${root}.xml`,
    modules: [`ModuleTag_${root.replace(/Draws$|Behaviors$/, "")}`],
  }));
  const objects = planObjects(ctx, sizes, bases);
  assignProducers(ctx, objects);
  assignFragments(ctx, objects, fragments);
  const inactiveArt: ArtFile[] = [];
  for (let i = 0; i < sizes.inactiveArt; i++) {
    const o = objects[i % objects.length];
    const dir = artDir(o.faction, o.kind);
    const name = `${dir}${o.id.slice(o.faction.name.length)}_OLD${i > objects.length - 1 ? i : ""}`;
    inactiveArt.push({
      name,
      dir,
      kind: "prop",
      main: ctx.define("W3DContainer", name),
      meshes: ["MESH"],
      hierarchy: null,
      weight: 2,
      form: "direct",
      active: false,
    });
  }
  return { sizes, objects, bases, common, fragments, defines, definesByCategory, inactiveArt };
}

function planDefines(
  ctx: GenContext,
  count: number,
): { defines: DefinePlan[]; definesByCategory: Map<string, string[]> } {
  const rng = ctx.rng;
  // Interleave categories so any prefix of the list still covers most of them.
  const pools: DefinePlan[][] = [];
  for (let tier = 1; pools.flat().length < count; tier++) {
    const round: DefinePlan[] = [];
    for (const c of WEAPON_CLASSES) {
      round.push({ name: `${c}_DAMAGE_T${tier}`, value: String(rng.int(10, 60) * tier * 5), category: `DAMAGE:${c}` });
      round.push({
        name: `${c}_RANGE_T${tier}`,
        value: String(rng.int(15, 45) * 10 + tier * 25),
        category: `RANGE:${c}`,
      });
    }
    for (const k of KINDS) {
      const K = k.toUpperCase();
      round.push({ name: `${K}_HEALTH_T${tier}`, value: String(rng.int(2, 40) * 50 * tier), category: `HEALTH:${k}` });
      round.push({ name: `${K}_BUILDTIME_T${tier}`, value: String(rng.int(5, 30) * tier), category: `BUILDTIME:${k}` });
      round.push({ name: `${K}_VISION_T${tier}`, value: String(rng.int(15, 40) * 10), category: `VISION:${k}` });
      round.push({ name: `${K}_SPEED_T${tier}`, value: String(rng.int(3, 20) * 5), category: `SPEED:${k}` });
    }
    if (tier === 1) {
      for (const v of VOLUME_CLASSES) {
        round.push({ name: `VOLUME_${v}`, value: String(rng.int(50, 100)), category: "VOLUME" });
      }
    }
    pools.push(round);
  }
  const defines = pools.flat().slice(0, count);
  const definesByCategory = new Map<string, string[]>();
  for (const d of defines) {
    const list = definesByCategory.get(d.category);
    if (list) list.push(d.name);
    else definesByCategory.set(d.category, [d.name]);
  }
  return { defines, definesByCategory };
}

function planCommon(ctx: GenContext, sizes: Sizes): CommonPlan {
  const rng = ctx.rng;
  const textures: Target[] = [];
  for (let i = 0; i < sizes.textures; i++) {
    const word = TEXTURE_WORDS[i % TEXTURE_WORDS.length];
    textures.push(
      ctx.define("Texture", `FX${word}_${String(Math.floor(i / TEXTURE_WORDS.length) + 1).padStart(2, "0")}`),
    );
  }
  const particles = range(sizes.commonParticles).map((i) =>
    ctx.define(
      "FXParticleSystemTemplate",
      `Common_${FX_WORDS[i % FX_WORDS.length]}${String(Math.floor(i / FX_WORDS.length) + 1).padStart(2, "0")}`,
    )
  );
  const audioEvents = range(sizes.commonAudio).map((i) =>
    ctx.define(
      "AudioEvent",
      `COM_${rng.pick(["Explosion", "Impact", "Debris", "Splash", "Crash", "Fire"])}${String(i + 1).padStart(2, "0")}`,
    )
  );
  const audioFiles = range(sizes.commonAudio * 2).map((i) =>
    ctx.define("AudioFile", `com_sfx_${String(i + 1).padStart(3, "0")}`)
  );
  const fx = range(sizes.commonFx).map((i) =>
    ctx.define(
      "FXList",
      `FX_Common_${rng.pick(["Explosion", "Smoke", "Sparks", "Splash", "Fire", "Dust"])}${
        rng.pick(["Small", "Medium", "Large", "Huge"])
      }${String(i + 1).padStart(2, "0")}`,
    )
  );
  const art: ArtFile[] = [];
  const debris = range(sizes.debris).map((i) => {
    const name = `EXDebris${String(i + 1).padStart(2, "0")}`;
    art.push({
      name,
      dir: "EX",
      kind: "prop",
      main: ctx.define("W3DContainer", name),
      meshes: ["CHUNK"],
      hierarchy: null,
      weight: 1,
      form: rng.pick(["two-letter", "direct"] as const),
      active: true,
    });
    return ctx.define("GameObject", `CommonDebris${String(i + 1).padStart(2, "0")}`);
  });
  const headlight = ctx.define("W3DContainer", "FXHeadlight01");
  const muzzleFlash = ctx.define("W3DContainer", "FXMuzzleFlash01");
  art.push({
    name: "FXHeadlight01",
    dir: "FX",
    kind: "prop",
    main: headlight,
    meshes: ["BEAM"],
    hierarchy: null,
    weight: 0.5,
    form: "two-letter",
    active: true,
  });
  art.push({
    name: "FXMuzzleFlash01",
    dir: "FX",
    kind: "prop",
    main: muzzleFlash,
    meshes: ["FLASH"],
    hierarchy: null,
    weight: 0.5,
    form: "relative",
    active: true,
  });
  const ocls = range(sizes.commonOcl).map((i) =>
    ctx.define(
      "ObjectCreationList",
      `OCL_CommonDebris${rng.pick(["Small", "Medium", "Large"])}${String(i + 1).padStart(2, "0")}`,
    )
  );
  const weapons = range(sizes.commonWeapons).map((i) =>
    ctx.define(
      "WeaponTemplate",
      `CommonDeathExplosion${rng.pick(["Small", "Medium", "Large"])}${String(i + 1).padStart(2, "0")}`,
    )
  );
  return { textures, particles, fx, audioEvents, audioFiles, debris, ocls, weapons, art, headlight, muzzleFlash };
}

function planBases(ctx: GenContext): BasePlan {
  const objects: BaseObject[] = [];
  const byKey = new Map<string, BaseObject>();
  const add = (id: string, parent: BaseObject | null, kind: ObjectKind | null, faction: Faction | null): BaseObject => {
    const b: BaseObject = { target: ctx.define("GameObject", id), file: `${id}.xml`, parent, kind, faction };
    objects.push(b);
    byKey.set(id, b);
    return b;
  };
  // Chains up to four inheritFrom hops: AlliedX → BaseAlliedVehicle → BaseVehicle → BaseUnit → BaseObject.
  const root = add("BaseObject", null, null, null);
  const unit = add("BaseUnit", root, null, null);
  const structure = add("BaseStructure", root, "structure", null);
  add("BaseProjectile", root, null, null);
  const perKind = new Map<ObjectKind, BaseObject>([["structure", structure]]);
  for (const k of KINDS) if (k !== "structure") perKind.set(k, add(`Base${CAP(k)}`, unit, k, null));
  for (const f of FACTIONS) for (const k of KINDS) add(`Base${f.name}${CAP(k)}`, perKind.get(k)!, k, f);

  const weapons = new Map<string, Target>([["", ctx.define("WeaponTemplate", "BaseWeapon")]]);
  for (const c of WEAPON_CLASSES) weapons.set(c, ctx.define("WeaponTemplate", `Base${CAP(c.toLowerCase())}Weapon`));
  const audio = new Map<string, Target>();
  for (const a of ["BaseModSound", "BaseUnitVoice", "BaseWeaponSound", "BaseExplosionSound", "BaseMoveLoop"]) {
    audio.set(a, ctx.define("AudioEvent", a));
  }
  const armor = new Map<ObjectKind, Target>(KINDS.map((k) => [k, ctx.define("ArmorTemplate", `Base${CAP(k)}Armor`)]));
  const locomotors = new Map<string, Target>(
    [...KINDS.filter((k) => k !== "structure"), "projectile"].map((
      k,
    ) => [k, ctx.define("LocomotorTemplate", `Base${CAP(k)}Locomotor`)]),
  );
  const particles = ["BaseSmokeParticle", "BaseSparkParticle", "BaseFireParticle", "BaseDustParticle"].map((id) =>
    ctx.define("FXParticleSystemTemplate", id)
  );
  const commandSets = new Map<string, Target>([
    ["unit", ctx.define("LogicCommandSet", "BaseUnitCommandSet")],
    ["structure", ctx.define("LogicCommandSet", "BaseStructureCommandSet")],
  ]);
  return { objects, byKey, weapons, audio, armor, locomotors, particles, commandSets };
}

function pickKind(ctx: GenContext): ObjectKind {
  let r = ctx.rng.next();
  for (const [k, w] of KIND_WEIGHTS) {
    if (r < w) return k;
    r -= w;
  }
  return "vehicle";
}

function artDir(f: Faction, k: ObjectKind): string {
  return `${f.letter}${k === "structure" ? "B" : "U"}`;
}

function planObjects(ctx: GenContext, sizes: Sizes, bases: BasePlan): ObjectPlan[] {
  const rng = ctx.rng;
  const usedNames = new Set<string>();
  const objects: ObjectPlan[] = [];
  for (let index = 0; index < sizes.objects; index++) {
    const faction = FACTIONS[index % FACTIONS.length];
    const kind = pickKind(ctx);
    let name = `${faction.name} ${rng.pick(CODENAMES)} ${rng.pick(NOUNS[kind])}`;
    for (let mk = 2; usedNames.has(name.toLowerCase()); mk++) name = name.replace(/ Mk\d+$/, "") + ` Mk${mk}`;
    usedNames.add(name.toLowerCase());
    const id = name.replace(/[^A-Za-z0-9]/g, "");
    const short = id.slice(faction.name.length);
    const group = kind === "structure" ? "Structures" : "Units";
    const dir = artDir(faction, kind);
    const code = `${dir}${short}`;
    const def = (type: string, suffixId: string) => ctx.define(type, suffixId);
    const object = def("GameObject", id);
    const hasProjectile = kind === "infantry" ? rng.chance(0.3) : rng.chance(kind === "structure" ? 0.4 : 0.65);
    const hasWeapon = kind !== "structure" || rng.chance(0.7);
    const weaponClass = rng.pick(WEAPON_CLASSES);
    const projectile = hasProjectile && hasWeapon ? def("GameObject", `${id}Projectile`) : null;
    const hulk = kind === "vehicle" || kind === "ship" || kind === "aircraft" ? def("GameObject", `${id}Hulk`) : null;
    const weapons = {
      main: hasWeapon ? def("WeaponTemplate", `${id}Weapon`) : null,
      vet: hasWeapon && rng.chance(0.7) ? def("WeaponTemplate", `${id}WeaponVet`) : null,
      secondary: hasWeapon && rng.chance(0.4) ? def("WeaponTemplate", `${id}SecondaryWeapon`) : null,
      warhead: projectile ? def("WeaponTemplate", `${id}Warhead`) : null,
      death: def("WeaponTemplate", `${id}DeathWeapon`),
    };
    const fx = {
      muzzle: def("FXList", `FX_${id}_MuzzleFlash`),
      impact: def("FXList", `FX_${id}_Impact`),
      death: def("FXList", `FX_${id}_Death`),
      damaged: def("FXList", `FX_${id}_Damaged`),
      vetMuzzle: weapons.vet ? def("FXList", `FX_${id}_VetMuzzleFlash`) : null,
    };
    const particleCount = rng.int(4, 7);
    const words = rng.sample(FX_WORDS, particleCount);
    const particles = words.map((w) => def("FXParticleSystemTemplate", `${id}_${w}`));
    const eventNames = ["VoiceSelect", "VoiceMove", "VoiceAttack", "VoiceCreate", "WeaponFire", "Die"];
    if (rng.chance(0.6)) eventNames.push("Impact");
    if (kind !== "structure" && kind !== "infantry") eventNames.push("MoveLoop");
    if (kind === "structure") eventNames.push("Ambient");
    const events = new Map<string, Target>();
    const files = new Map<string, Target[]>();
    for (const e of eventNames) {
      events.set(e, def("AudioEvent", `${faction.audio}_${short}_${e}`));
      // Voices and weapon sounds come in variations; effects usually have one file.
      const variations = e === "WeaponFire"
        ? rng.int(1, 2)
        : e.startsWith("Voice")
        ? (rng.chance(0.4) ? 2 : 1)
        : rng.chance(0.2)
        ? 2
        : 1;
      files.set(
        e,
        range(variations).map((i) =>
          def("AudioFile", `${code.toLowerCase()}_${e.toLowerCase()}${String(i + 1).padStart(2, "0")}`)
        ),
      );
    }
    const multisound = kind === "infantry" || rng.chance(0.3)
      ? def("Multisound", `${faction.audio}_${short}_VoiceSelectMS`)
      : null;
    const specialPowers: Target[] = [];
    if (rng.chance(0.6)) specialPowers.push(def("SpecialPowerTemplate", `SpecialPower_${id}Ability`));
    if (specialPowers.length && rng.chance(0.3)) {
      specialPowers.push(def("SpecialPowerTemplate", `SpecialPower_${id}Toggle`));
    }
    const upgrades = {
      ability: rng.chance(0.5) ? def("UpgradeTemplate", `Upgrade_${id}Ability`) : null,
      research: rng.chance(0.3) ? def("UpgradeTemplate", `Upgrade_${id}Research`) : null,
    };
    const commands = {
      construct: def("LogicCommand", `Command_Construct${id}`),
      special: specialPowers.length ? def("LogicCommand", `Command_${id}Ability`) : null,
      upgrade: upgrades.ability ? def("LogicCommand", `Command_Upgrade${id}`) : null,
    };
    const commandSet = def("LogicCommandSet", `${id}CommandSet`);
    const buttons = commands.special ? def("UnitAbilityButtonTemplate", `${id}AbilityButtons`) : null;
    const armor = def("ArmorTemplate", `${id}Armor`);
    const armorUpgraded = rng.chance(0.4) ? def("ArmorTemplate", `${id}ArmorUpgraded`) : null;
    const locomotor = kind !== "structure" ? def("LocomotorTemplate", `${id}Locomotor`) : null;
    const projectileLocomotor = projectile && rng.chance(0.6)
      ? def("LocomotorTemplate", `${id}ProjectileLocomotor`)
      : null;
    const ocls = {
      death: rng.chance(0.85) ? def("ObjectCreationList", `OCL_${id}Death`) : null,
      spawn: rng.chance(0.2) ? def("ObjectCreationList", `OCL_${id}Spawn`) : null,
    };
    // Art: a skinned model, its skeleton, a damaged model, animations and a projectile model.
    const artFiles: ArtFile[] = [];
    const form = (): ArtForm => {
      const r = rng.next();
      return r < 0.5 ? "two-letter" : r < 0.8 ? "direct" : "relative";
    };
    const skl = def("W3DHierarchy", `${code}_SKL`);
    artFiles.push({
      name: `${code}_SKL`,
      dir,
      kind: "skl",
      main: skl,
      meshes: [],
      hierarchy: null,
      weight: 0.4,
      form: form(),
      active: true,
    });
    const meshNames = kind === "infantry"
      ? ["BODY", "HEAD"]
      : kind === "structure"
      ? ["BASE", "TOP", "DETAIL"].slice(0, rng.int(2, 3))
      : ["HULL", "TURRET", "BARREL"].slice(0, rng.int(2, 3));
    const skn = def("W3DContainer", `${code}_SKN`);
    artFiles.push({
      name: `${code}_SKN`,
      dir,
      kind: "skn",
      main: skn,
      meshes: meshNames,
      hierarchy: skl.id,
      weight: 10,
      form: form(),
      active: true,
    });
    const dmg = kind !== "infantry" ? def("W3DContainer", `${code}_D`) : null;
    if (dmg) {
      artFiles.push({
        name: `${code}_D`,
        dir,
        kind: "dmg",
        main: dmg,
        meshes: meshNames.slice(0, rng.int(1, 2)),
        hierarchy: skl.id,
        weight: 6,
        form: form(),
        active: true,
      });
    }
    const animNames = kind === "infantry"
      ? ["IDLA", "MOVA", "ATKA"]
      : kind === "structure"
      ? ["IDLA"]
      : rng.chance(0.5)
      ? ["ATKA", "MOVA"]
      : ["ATKA"];
    const anims = animNames.map((a) => {
      const t = def("W3DAnimation", `${code}_${a}`);
      artFiles.push({
        name: `${code}_${a}`,
        dir,
        kind: "anim",
        main: t,
        meshes: [],
        hierarchy: skl.id,
        weight: 3,
        form: form(),
        active: true,
      });
      return t;
    });
    const prj = projectile ? def("W3DContainer", `${code}_PRJ`) : null;
    if (prj) {
      artFiles.push({
        name: `${code}_PRJ`,
        dir,
        kind: "prj",
        main: prj,
        meshes: ["BODY"],
        hierarchy: null,
        weight: 1,
        form: form(),
        active: true,
      });
    }
    const baseKey = rng.chance(0.85)
      ? `Base${faction.name}${CAP(kind)}`
      : kind === "structure"
      ? "BaseStructure"
      : `Base${CAP(kind)}`;
    objects.push({
      index,
      faction,
      kind,
      name,
      id,
      group,
      folder: `Data/Mod/${group}/${name}`,
      object,
      base: bases.byKey.get(baseKey)!,
      projectile,
      hulk,
      weapons,
      weaponClass,
      fx,
      particles,
      audio: { events, files, multisound },
      commands,
      commandSet,
      buttons,
      armor,
      armorUpgraded,
      locomotor,
      projectileLocomotor,
      specialPowers,
      upgrades,
      ocls,
      art: { skn, skl, dmg, prj, anims, files: artFiles },
      producer: null,
      builds: [],
      drawFragment: null,
      behaviorFragment: null,
    });
  }
  return objects;
}

function assignProducers(ctx: GenContext, objects: ObjectPlan[]): void {
  for (const f of FACTIONS) {
    const structures = objects.filter((o) => o.faction === f && o.kind === "structure");
    if (structures.length === 0) continue;
    for (const o of objects) {
      if (o.faction !== f || o.kind === "structure" || ctx.rng.chance(0.1)) continue;
      const p = ctx.rng.pick(structures);
      o.producer = p;
      p.builds.push(o);
    }
  }
}

function assignFragments(ctx: GenContext, objects: ObjectPlan[], fragments: readonly Fragment[]): void {
  const rng = ctx.rng;
  const draws = fragments.filter((f) => f.slot === "draw");
  const byRoot = new Map(fragments.map((f) => [f.root, f]));
  for (const o of objects) {
    if (o.kind !== "infantry" && o.kind !== "structure" && rng.chance(0.35)) o.drawFragment = rng.pick(draws);
    const r = rng.next();
    if (r < 0.4) {
      o.behaviorFragment = byRoot.get(
        o.kind === "infantry"
          ? "InfantryDeathBehaviors"
          : o.kind === "structure"
          ? "StructureDeathBehaviors"
          : "VehicleDeathBehaviors",
      )!;
    } else if (r < 0.55) {
      o.behaviorFragment = byRoot.get(
        rng.pick(["CommonDeathBehaviors", "VeterancyBehaviors", "CrushRepairBehaviors"]),
      )!;
    }
  }
  // Every fragment is spliced at least once, so each is reached and its references are owned by an asset.
  // The object that takes an unused one has that slot free, or shares its fragment with another object
  // (one exists: there are more objects than fragments of a slot).
  for (const f of fragments) {
    const slot = f.slot === "draw" ? "drawFragment" : "behaviorFragment";
    if (objects.some((o) => o[slot] === f)) continue;
    const users = (g: Fragment | null) => objects.filter((o) => o[slot] === g).length;
    const taker = objects.find((o) => o[slot] === null) ?? objects.find((o) => users(o[slot]) > 1);
    if (!taker) throw new Error(`generator bug: no object can splice fragment ${f.root}`);
    taker[slot] = f;
  }
}

/** Vanilla targets used across the writers. */
export function vanillaTargets(ctx: GenContext) {
  return {
    side: (f: Faction) => ctx.vanilla("PlayerTemplate", f.side),
    damageFx: (k: ObjectKind) => ctx.vanilla("DamageFX", VANILLA.damageFx[k]),
    commands: VANILLA.commands.map((c) => ctx.vanilla("LogicCommand", c)),
    veterancy: VANILLA.veterancy.map((u) => ctx.vanilla("UpgradeTemplate", u)),
    fx: VANILLA.fx.map((x) => ctx.vanilla("FXList", x)),
    debris: VANILLA.debris.map((x) => ctx.vanilla("GameObject", x)),
    textures: VANILLA.textures.map((x) => ctx.vanilla("Texture", x)),
    audioBase: ctx.vanilla("AudioEvent", VANILLA.audioBase),
    constructionYard: (f: Faction) => ctx.vanilla("GameObject", `${f.name}ConstructionYard`),
  };
}

export type VanillaTargets = ReturnType<typeof vanillaTargets>;

export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
