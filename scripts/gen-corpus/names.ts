/**
 * Word lists for object names, and the vanilla ids the synthetic mod refers to without defining them
 * (unresolved in project-only mode, as `DATA:static.xml` content would be in a real mod).
 */

export interface Faction {
  /** Folder and id prefix: "Allied". */
  readonly name: string;
  /** Vanilla PlayerTemplate id used by `Side`. */
  readonly side: string;
  /** First letter of the art prefix (`AU…`, `SB…`). */
  readonly letter: string;
  /** Audio id prefix (`ALL_…`). */
  readonly audio: string;
}

export const FACTIONS: readonly Faction[] = [
  { name: "Allied", side: "Allies", letter: "A", audio: "ALL" },
  { name: "Soviet", side: "Soviet", letter: "S", audio: "SOV" },
  { name: "Japan", side: "Japan", letter: "J", audio: "JAP" },
  { name: "Celestial", side: "Celestial", letter: "C", audio: "CEL" },
];

export type ObjectKind = "infantry" | "vehicle" | "aircraft" | "ship" | "structure";

export const KIND_WEIGHTS: readonly (readonly [ObjectKind, number])[] = [
  ["infantry", 0.24],
  ["vehicle", 0.34],
  ["aircraft", 0.13],
  ["ship", 0.11],
  ["structure", 0.18],
];

export const NOUNS: Readonly<Record<ObjectKind, readonly string[]>> = {
  infantry: [
    "Trooper",
    "Commando",
    "Engineer",
    "Sniper",
    "Rifleman",
    "Warrior",
    "Legionnaire",
    "Operative",
    "Ranger",
    "Grenadier",
    "Defender",
    "Tank Buster",
  ],
  vehicle: [
    "Tank",
    "Cannon",
    "Walker",
    "Buggy",
    "APC",
    "Artillery",
    "Rover",
    "Harvester",
    "Crawler",
    "Halftrack",
    "Launcher",
    "Destroyer Tank",
  ],
  aircraft: ["Gunship", "Bomber", "Fighter", "Copter", "Zeppelin", "Drone", "Jet", "Interceptor"],
  ship: ["Destroyer", "Cruiser", "Carrier", "Submarine", "Hovercraft", "Frigate", "Boat", "Dreadnought"],
  structure: [
    "Bunker",
    "Tower",
    "Reactor",
    "Factory",
    "Barracks",
    "Airfield",
    "Refinery",
    "Shipyard",
    "Battery",
    "Spire",
    "Laboratory",
    "Command Hub",
  ],
};

export const CODENAMES: readonly string[] = [
  "Athena",
  "Hammer",
  "Apollo",
  "Vindicator",
  "Guardian",
  "Tsunami",
  "Striker",
  "Sickle",
  "Bullfrog",
  "Twinblade",
  "Kirov",
  "Riptide",
  "Assault",
  "Mirage",
  "Spectrum",
  "Harbinger",
  "Cryo",
  "Future",
  "Grinder",
  "Reaper",
  "Pacifier",
  "Steel",
  "Archer",
  "Ronin",
  "Shogun",
  "Tengu",
  "Sudden",
  "Wave",
  "Chrono",
  "Prism",
  "Tesla",
  "Apocalypse",
  "Dragon",
  "Phoenix",
  "Raptor",
  "Tempest",
  "Valkyrie",
  "Warden",
  "Sentinel",
  "Onslaught",
  "Blizzard",
  "Cyclone",
  "Javelin",
  "Mantis",
  "Scorpion",
  "Viper",
  "Cobra",
  "Falcon",
  "Hydra",
  "Kodiak",
  "Titan",
  "Goliath",
  "Nomad",
  "Pioneer",
  "Paladin",
  "Spartan",
  "Templar",
  "Zephyr",
  "Orca",
  "Marauder",
  "Giga-",
  "X-1",
  "Mk-7",
  "Nova",
  "Aurora",
  "Crimson",
  "Obsidian",
  "Ember",
  "Frost",
  "Thunder",
];

/** Vanilla ids (not defined by the mod). Chosen so no generated id can take the same name. */
export const VANILLA = {
  damageFx: {
    infantry: "InfantryDamageFX",
    vehicle: "VehicleDamageFX",
    aircraft: "AircraftDamageFX",
    ship: "ShipDamageFX",
    structure: "StructureDamageFX",
  } as Readonly<Record<ObjectKind, string>>,
  commands: [
    "Command_AttackMove",
    "Command_Stop",
    "Command_Guard",
    "Command_Sell",
    "Command_Evacuate",
    "Command_ToggleRepair",
  ],
  veterancy: ["Upgrade_Veterancy_VETERAN", "Upgrade_Veterancy_ELITE", "Upgrade_Veterancy_HEROIC"],
  fx: [
    "FX_GenericVehicleDeath",
    "FX_GenericInfantryDeath",
    "FX_BuildingDamagedSmoke",
    "FX_WaterSplashLarge",
    "FX_GenericAircraftCrash",
  ],
  debris: ["DebrisVehicleChunk01", "DebrisStructureRubble02", "GenericCrateSpawner"],
  textures: ["EXSmokNew1", "EXExplo04", "EXSpark01", "EXFireball2"],
  audioBase: "BaseSoundEffect",
  voiceBase: "BaseUnitVoiceVanilla",
};

/** Particle-system and FX words. */
export const FX_WORDS: readonly string[] = [
  "Sparks",
  "Smoke",
  "Flash",
  "Embers",
  "Debris",
  "Shockwave",
  "Glow",
  "Trail",
  "Dust",
  "Fire",
  "Splash",
  "Flare",
  "Haze",
  "Burst",
  "Ring",
  "Streak",
];

export const TEXTURE_WORDS: readonly string[] = [
  "Smoke",
  "Spark",
  "Fire",
  "Dust",
  "Flare",
  "Glow",
  "Cloud",
  "Ember",
  "Shock",
  "Water",
  "Ring",
  "Beam",
  "Electric",
  "Frost",
  "Plasma",
  "Debris",
];

export const BONES: readonly string[] = [
  "FX_Weapon_01",
  "FX_Weapon_02",
  "FX_Muzzle",
  "FX_Exhaust",
  "Bone_Turret",
  "Bone_Barrel",
  "Bone_Treads_Left",
  "Bone_Treads_Right",
  "FX_Damage_01",
  "FX_Damage_02",
  "Bone_Hatch",
  "FX_Engine",
  "Bone_Radar",
  "FX_Light_01",
];

/** Weapon classes used in define names (`CANNON_DAMAGE_T2`). */
export const WEAPON_CLASSES: readonly string[] = [
  "GUN",
  "CANNON",
  "ROCKET",
  "LASER",
  "FLAME",
  "SONIC",
  "MAGNETIC",
  "FROST",
  "TESLA",
  "BEAM",
  "TORPEDO",
  "MISSILE",
];
export const VOLUME_CLASSES: readonly string[] = ["WEAPON_FIRE", "EXPLOSION", "VOICE", "AMBIENT", "UI", "MOVE"];
