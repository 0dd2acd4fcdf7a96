/**
 * The synthetic mod's schema, as one table: every type, element and attribute the generator writes,
 * with the `xas:refType`s that make them references. `xsd.ts` renders it as a `Schemas/xsd/` folder in
 * the dialect of the RA3 SDK (target namespace `uri:ea.com:eala:asset`, `xas:` annotations), and the
 * generator checks every element and attribute name it writes against it, so the two cannot drift.
 *
 * Names follow the RA3 SDK schema (`WeaponSlotTurret`, `FireWeaponNugget@WeaponName`, `Model@Name` …),
 * cut down to what the generator uses.
 *
 * Compact declarations (parsed by `parseAttr` / `parseChild`):
 * - attribute: `"Name Type [@RefType] [!] [=default]"` — `@` attribute-level refType, `!` required;
 * - child element: `"Name Type [?|*|+] [@RefType]"` — `?` 0..1, `*` 0..n, `+` 1..n, none 1..1;
 *   `@` element-level refType (simple-content references on a generic type).
 */

export interface AttrSpec {
  readonly name: string;
  readonly type: string;
  readonly refType: string | null;
  readonly required: boolean;
  readonly defaultValue: string | null;
}

export interface ChildSpec {
  readonly name: string;
  readonly type: string;
  readonly min: number;
  /** -1 = unbounded */
  readonly max: number;
  readonly refType: string | null;
}

export interface ComplexSpec {
  readonly kind: "complex";
  readonly name: string;
  readonly doc?: string;
  /** complexContent extension base, or the simpleContent base when `simpleContent` is set. */
  readonly base?: string;
  readonly simpleContent?: boolean;
  readonly abstract?: boolean;
  readonly polymorphic?: boolean;
  /** Children in an unbounded `xs:choice` (module lists, nugget lists) instead of an `xs:sequence`. */
  readonly choice?: boolean;
  readonly children?: readonly string[];
  readonly attrs?: readonly string[];
  readonly refType?: string;
  readonly isRef?: boolean;
}

export interface SimpleSpec {
  readonly kind: "simple";
  readonly name: string;
  readonly doc?: string;
  /** Restriction base (default `xs:string`); ignored for lists. */
  readonly base?: string;
  readonly pattern?: string;
  /** Enumeration values: the name of an entry in {@link ENUMS}. */
  readonly enumOf?: keyof typeof ENUMS;
  /** `xs:list` item type. */
  readonly list?: string;
  readonly refType?: string;
  readonly isRef?: boolean;
  readonly isWeakRef?: boolean;
}

export type TypeSpec = ComplexSpec | SimpleSpec;

export interface XsdFileSpec {
  /** Path below `Schemas/xsd/`. */
  readonly path: string;
  readonly doc: string;
  readonly types: readonly TypeSpec[];
}

/** Enumeration values; the generator draws its enum-valued attributes from these same lists. */
export const ENUMS = {
  IncludeType: ["reference", "instance", "all"],
  KindOf: [
    "SELECTABLE",
    "CAN_ATTACK",
    "CAN_CAST_REFLECTIONS",
    "SCORE",
    "VEHICLE",
    "INFANTRY",
    "AIRCRAFT",
    "SHIP",
    "STRUCTURE",
    "IMMOBILE",
    "PROJECTILE",
    "INERT",
    "CAN_BE_FAVORITE_UNIT",
    "T1_UNIT",
    "T2_UNIT",
    "T3_UNIT",
    "FS_FACTORY",
    "FS_POWER",
    "AMPHIBIOUS",
    "HULK",
    "NO_COLLIDE",
  ],
  ModelCondition: [
    "DAMAGED",
    "REALLYDAMAGED",
    "MOVING",
    "ATTACKING",
    "FIRING_OR_PREATTACK_A",
    "FIRING_OR_RELOADING_A",
    "DYING",
    "USER_1",
    "USER_2",
    "WEAPONSET_TOGGLE_1",
    "SELECTED",
    "FORMATION_PREVIEW",
    "DEPLOYED",
    "UNPACKING",
    "PACKING",
    "AWAITING_CONSTRUCTION",
    "ACTIVELY_CONSTRUCTING",
    "POWER_PLANT_UPGRADED",
    "OVER_WATER",
    "SPECIAL_WEAPON_ONE",
  ],
  ParseCondStateType: ["PARSE_DEFAULT", "PARSE_NORMAL", "PARSE_TRANSITION"],
  AnimationMode: ["ONCE", "LOOP", "ONCE_BACKWARDS", "MANUAL"],
  WeaponSlotType: ["PRIMARY_WEAPON", "SECONDARY_WEAPON", "TERTIARY_WEAPON"],
  DamageType: [
    "EXPLOSION",
    "CRUSH",
    "ARMOR_PIERCING",
    "SMALL_ARMS",
    "GATTLING",
    "RADIATION",
    "FLAME",
    "LASER",
    "SNIPER",
    "POISON",
    "MELEE",
    "GUN",
    "ROCKET",
    "CANNON",
    "IMPACT",
    "MAGNETIC",
    "FROST",
    "SONIC",
  ],
  DeathType: ["NORMAL", "EXPLODED", "BURNED", "LASERED", "CRUSHED", "TOPPLED", "FROZEN", "SUPERNATURAL", "ALL"],
  FXEventIndex: ["onCreate", "onDeath", "onDamaged", "onReallyDamaged", "onUpgrade"],
  SlowDeathPhase: ["INITIAL", "MIDPOINT", "FINAL"],
  Surface: ["GROUND", "WATER", "CLIFF", "AIR", "RUBBLE", "DEEP_WATER"],
  LocomotorAppearance: ["TWO_LEGS", "FOUR_WHEELS", "TREADS", "HOVER", "THRUST", "WINGS", "BOAT"],
  LocomotorBehaviorZ: [
    "NO_Z_MOTIVE_FORCE",
    "SURFACE_RELATIVE_HEIGHT",
    "ABSOLUTE_HEIGHT",
    "FIXED_SURFACE_RELATIVE_HEIGHT",
  ],
  LocomotorCondition: ["NORMAL", "PANIC", "WANDER", "SWIMMING", "FORMATION"],
  AudioType: [
    "voiceSelect",
    "voiceMove",
    "voiceAttack",
    "voiceAttackAfterMoving",
    "voiceCreated",
    "voiceRetreat",
    "voiceGuard",
    "soundMoveStart",
    "soundMoveLoop",
    "soundAmbient",
    "soundDie",
  ],
  WeaponSetFlag: ["PLAYER_UPGRADE", "WEAPONSET_TOGGLE_1", "VETERAN", "ELITE", "HERO"],
  AudioPriority: ["LOWEST", "LOW", "NORMAL", "HIGH", "CRITICAL"],
  AudioTypeFlag: ["UI", "WORLD", "SHROUDED", "PLAYER", "ALLIES", "ENEMIES", "EVERYONE", "VOICE"],
  AudioControlFlag: ["LOOP", "RANDOM", "ALL", "INTERRUPT", "FADE_ON_KILL", "FADE_ON_START"],
  VolumeSlider: ["SOUNDFX", "VOICE", "MUSIC", "AMBIENT", "MOVIE"],
  PCCompression: ["NONE", "XAS", "EALAYER3"],
  LogicCommandType: [
    "NONE",
    "UNIT_BUILD",
    "STRUCTURE_BUILD",
    "PLAYER_UPGRADE",
    "OBJECT_UPGRADE",
    "SPECIAL_POWER",
    "FIRE_WEAPON",
    "SELL",
    "STOP",
    "ATTACK_MOVE",
    "GUARD",
  ],
  SpecialPowerTargetType: ["NONE", "OBJECT", "LOCATION", "OBJECT_OR_LOCATION"],
  SpecialPowerFlag: [
    "NEEDS_OBJECT_FILTER",
    "WATER_OK",
    "SHARED_SYNCED",
    "PATHABLE_ONLY",
    "NO_FORBIDDEN_OBJECTS",
    "RESTRICT_TO_AI",
    "FOGGED_SHROUDED_CELLS_OK",
  ],
  UpgradeType: ["PLAYER", "OBJECT"],
  TextureFormat: ["A8R8G8B8", "DXT1", "DXT3", "DXT5"],
  ParticlePriority: [
    "WEAPON_EXPLOSION",
    "SCORCHMARK",
    "DUST_TRAIL",
    "BUILDUP",
    "DEBRIS_TRAIL",
    "UNIT_DAMAGE_FX",
    "CRITICAL",
    "HIGH_OR_ABOVE",
    "ALWAYS_RENDER",
  ],
  ParticleType: ["NORMAL", "GPU_PARTICLE", "STREAK", "DRAWABLE", "VOLUME_PARTICLE"],
  ViewShakeType: ["SUBTLE", "NORMAL", "STRONG", "SEVERE"],
  OclOption: ["IGNORE_ALL_OBJECTS", "CREATE_AT_TARGET", "INHERIT_VELOCITY", "ORIENT_LIKE_CREATOR"],
  OclDisposition: ["ON_GROUND_ALIGNED", "LIKE_EXISTING", "RANDOM_FORCE", "USE_WATER_SURFACE", "SEND_IT_FLYING"],
  ArmorSetFlag: ["PLAYER_UPGRADE", "CRATE_UPGRADE_ONE", "SECOND_LIFE"],
  ObjectStatus: ["WEAPON_UPGRADED_01", "WEAPON_UPGRADED_02", "ARMOR_UPGRADED_01", "STEALTHED", "CAN_SPOT_FOR_BOMBARD"],
  GeometryType: ["Normal", "Skin", "CameraOriented"],
  ChannelType: ["XTranslation", "YTranslation", "ZTranslation", "Orientation", "Visibility"],
  ShapeType: ["BOX", "CYLINDER", "SPHERE"],
  AutoAcquire: ["YES", "NO", "ATTACK_BUILDINGS", "STEALTHED"],
  EditorSorting: ["UNIT", "STRUCTURE", "SYSTEM", "MISC"],
} as const satisfies Record<string, readonly string[]>;

/** Numbers that may also be a `$DEFINE` or an `=expression` (the `(=[_a-zA-Z` pattern alternative). */
const NUM = "(\\+|\\-)?((\\.\\d{1,16})|(\\d{1,16}(\\.\\d{0,16})?))";
const DEFINE_ALT = "(=[_a-zA-Z$]+.*)|(\\$[_a-zA-Z][_a-zA-Z0-9]*)";

export const XSD_FILES: readonly XsdFileSpec[] = [
  {
    path: "Base/AssetBase.xsd",
    doc: "What every asset is, and the reference primitives the typed references derive from.",
    types: [
      {
        kind: "complex",
        name: "BaseAssetType",
        attrs: ["id InstanceId !", "typeHashCode HashCode", "buildRule xs:string"],
      },
      { kind: "complex", name: "BaseInheritableAsset", base: "BaseAssetType", attrs: ["inheritFrom InheritFromValue"] },
      { kind: "simple", name: "InstanceId", pattern: "[0-9a-zA-Z_.\\-]+" },
      { kind: "simple", name: "InheritFromValue", pattern: "([0-9a-zA-Z_.\\-]*:)?[0-9a-zA-Z_.\\-]*" },
      { kind: "simple", name: "HashCode", pattern: "[0-9a-fA-F]{8}" },
      {
        kind: "simple",
        name: "AssetReference",
        isRef: true,
        pattern: "([0-9a-zA-Z_.\\-]*:)?[0-9a-zA-Z_.\\-]*",
        doc: "A strong reference; the target type comes from a derived type or the declaration.",
      },
      { kind: "simple", name: "WeakReference", isWeakRef: true },
      {
        kind: "simple",
        name: "Poid",
        isWeakRef: true,
        doc: "Pipeline object id: a module or sub-object of the same asset, never a global asset.",
      },
      { kind: "simple", name: "FileReference", base: "xs:anyURI" },
      { kind: "simple", name: "IncludeType", enumOf: "IncludeType" },
      { kind: "complex", name: "Include", attrs: ["type IncludeType !", "source xs:anyURI !"] },
      { kind: "complex", name: "Tag", attrs: ["name xs:string !", "tag xs:string !"] },
      { kind: "complex", name: "Define", attrs: ["name xs:string !", "value xs:string !", "override xs:boolean"] },
    ],
  },
  {
    path: "Includes/Base.xsd",
    doc: 'Scalars. The "(=[_a-zA-Z" alternative of a pattern is what lets a value be a $DEFINE or an =expression.',
    types: [
      { kind: "simple", name: "SageReal", pattern: `(${NUM}([eE](\\+|\\-)?\\d{1,3})?)|${DEFINE_ALT}` },
      { kind: "simple", name: "SageInt", pattern: `((\\+|\\-)?\\d{1,10})|${DEFINE_ALT}` },
      { kind: "simple", name: "SageUnsignedInt", pattern: `(\\d{1,10})|${DEFINE_ALT}` },
      { kind: "simple", name: "SageBool", pattern: "([Ff]alse)|([Tt]rue)|0|1" },
      { kind: "simple", name: "Percentage", pattern: `(${NUM}%?)|${DEFINE_ALT}` },
      { kind: "simple", name: "Time", pattern: `(${NUM}(s|ms)?)|${DEFINE_ALT}` },
      { kind: "simple", name: "Angle", pattern: `(${NUM}(r|d)?)|${DEFINE_ALT}` },
      { kind: "simple", name: "Velocity", base: "SageReal" },
      { kind: "complex", name: "Vector3", attrs: ["X SageReal =0", "Y SageReal =0", "Z SageReal =0"] },
      {
        kind: "complex",
        name: "Quaternion",
        attrs: ["X SageReal =0", "Y SageReal =0", "Z SageReal =0", "W SageReal =1"],
      },
      { kind: "complex", name: "RGBColor", attrs: ["r SageReal =0", "g SageReal =0", "b SageReal =0"] },
      { kind: "complex", name: "RandomVariable", attrs: ["Low SageReal =0", "High SageReal =0"] },
      { kind: "complex", name: "RangeDuration", attrs: ["MinSeconds Time =0s", "MaxSeconds Time =0s"] },
    ],
  },
  {
    path: "Includes/Enums.xsd",
    doc: "Enumerations and bit-flag lists (an xs:list over an enumeration).",
    types: [
      { kind: "simple", name: "KindOfType", enumOf: "KindOf" },
      { kind: "simple", name: "KindOfBitFlags", list: "KindOfType" },
      { kind: "simple", name: "ModelConditionFlagType", enumOf: "ModelCondition" },
      { kind: "simple", name: "ModelConditionBitFlags", list: "ModelConditionFlagType" },
      { kind: "simple", name: "ParseCondStateType", enumOf: "ParseCondStateType" },
      { kind: "simple", name: "AnimationMode", enumOf: "AnimationMode" },
      { kind: "simple", name: "WeaponSlotType", enumOf: "WeaponSlotType" },
      { kind: "simple", name: "DamageType", enumOf: "DamageType" },
      { kind: "simple", name: "DeathType", enumOf: "DeathType" },
      { kind: "simple", name: "DeathTypeBitFlags", list: "DeathType" },
      { kind: "simple", name: "FXEventIndex", enumOf: "FXEventIndex" },
      { kind: "simple", name: "SlowDeathPhaseType", enumOf: "SlowDeathPhase" },
      { kind: "simple", name: "LocomotorSurfaceType", enumOf: "Surface" },
      { kind: "simple", name: "LocomotorSurfaceBitFlags", list: "LocomotorSurfaceType" },
      { kind: "simple", name: "LocomotorAppearance", enumOf: "LocomotorAppearance" },
      { kind: "simple", name: "LocomotorBehaviorZ", enumOf: "LocomotorBehaviorZ" },
      { kind: "simple", name: "LocomotorSetType", enumOf: "LocomotorCondition" },
      { kind: "simple", name: "AudioTypeEnum", enumOf: "AudioType" },
      { kind: "simple", name: "AudioPriority", enumOf: "AudioPriority" },
      { kind: "simple", name: "AudioTypeFlag", enumOf: "AudioTypeFlag" },
      { kind: "simple", name: "AudioTypeBitFlags", list: "AudioTypeFlag" },
      { kind: "simple", name: "AudioControlFlag", enumOf: "AudioControlFlag" },
      { kind: "simple", name: "AudioControlBitFlags", list: "AudioControlFlag" },
      { kind: "simple", name: "AudioVolumeSlider", enumOf: "VolumeSlider" },
      { kind: "simple", name: "PCAudioCompressionSetting", enumOf: "PCCompression" },
      { kind: "simple", name: "LogicCommandType", enumOf: "LogicCommandType" },
      { kind: "simple", name: "SpecialPowerTargetType", enumOf: "SpecialPowerTargetType" },
      { kind: "simple", name: "SpecialPowerFlag", enumOf: "SpecialPowerFlag" },
      { kind: "simple", name: "SpecialPowerBitFlags", list: "SpecialPowerFlag" },
      { kind: "simple", name: "UpgradeType", enumOf: "UpgradeType" },
      { kind: "simple", name: "TextureFormat", enumOf: "TextureFormat" },
      { kind: "simple", name: "ParticleSystemPriority", enumOf: "ParticlePriority" },
      { kind: "simple", name: "ParticleSystemType", enumOf: "ParticleType" },
      { kind: "simple", name: "ViewShakeType", enumOf: "ViewShakeType" },
      { kind: "simple", name: "OCLCreateObjectOption", enumOf: "OclOption" },
      { kind: "simple", name: "OCLCreateObjectOptions", list: "OCLCreateObjectOption" },
      { kind: "simple", name: "OCLDisposition", enumOf: "OclDisposition" },
      { kind: "simple", name: "OCLDispositionFlags", list: "OCLDisposition" },
      { kind: "simple", name: "ArmorSetFlag", enumOf: "ArmorSetFlag" },
      { kind: "simple", name: "WeaponSetFlag", enumOf: "WeaponSetFlag" },
      { kind: "simple", name: "ArmorSetFlags", list: "ArmorSetFlag" },
      { kind: "simple", name: "ObjectStatusType", enumOf: "ObjectStatus" },
      { kind: "simple", name: "ObjectStatusBitFlags", list: "ObjectStatusType" },
      { kind: "simple", name: "MeshGeometryType", enumOf: "GeometryType" },
      { kind: "simple", name: "AnimationChannelType", enumOf: "ChannelType" },
      { kind: "simple", name: "GeometryShapeType", enumOf: "ShapeType" },
      { kind: "simple", name: "AutoAcquireEnemiesType", enumOf: "AutoAcquire" },
      { kind: "simple", name: "EditorSortingType", enumOf: "EditorSorting" },
    ],
  },
  {
    path: "Includes/Ref.xsd",
    doc: "Typed references: each names its target asset type once; attributes and elements use the named type.",
    types: [
      ref("WeaponRef", "WeaponTemplate"),
      ref("GameObjectRef", "GameObject"),
      ref("GameObjectWeakRef", "GameObject", true),
      ref("PlayerTemplateWeakRef", "PlayerTemplate", true),
      ref("LogicCommandSetRef", "LogicCommandSet"),
      ref("LogicCommandRef", "LogicCommand"),
      ref("ObjectCreationListRef", "ObjectCreationList"),
      ref("FXListRef", "FXList"),
      ref("FXParticleSystemRef", "FXParticleSystemTemplate"),
      ref("AudioFileRef", "AudioFile"),
      ref("AudioEventInfoRef", "BaseAudioEventInfo"),
      ref("RenderObjectRef", "BaseRenderAssetType"),
      ref("TextureRef", "Texture"),
      ref("SpecialPowerTemplateRef", "SpecialPowerTemplate"),
      ref("UpgradeTemplateRef", "UpgradeTemplate"),
      ref("UpgradeTemplateWeakRef", "UpgradeTemplate", true),
      ref("DamageFXRef", "DamageFX"),
    ],
  },
  {
    path: "Modules/BaseModules.xsd",
    doc:
      "Modules: the children of a GameObject's <Draws>, <Body>, <Behaviors> and <AI>. Their ids are Poids whose declaration names ModuleData, so a module id is a definition, not a reference.",
    types: [
      { kind: "complex", name: "ModuleData", polymorphic: true, attrs: ["id Poid @ModuleData"] },
      { kind: "complex", name: "DrawModuleData", base: "ModuleData" },
      { kind: "complex", name: "BodyModuleData", base: "ModuleData" },
      { kind: "complex", name: "BehaviorModuleData", base: "ModuleData" },
      { kind: "complex", name: "UpdateModuleData", base: "BehaviorModuleData" },
      {
        kind: "complex",
        name: "DieMuxDataType",
        attrs: ["DeathTypes DeathTypeBitFlags", "DeathTypesForbidden DeathTypeBitFlags"],
      },
      { kind: "complex", name: "DieModuleData", base: "BehaviorModuleData", children: ["DieMuxData DieMuxDataType ?"] },
      {
        kind: "complex",
        name: "UpgradeModuleData",
        base: "BehaviorModuleData",
        children: ["TriggeredBy UpgradeTemplateWeakRef *"],
      },
    ],
  },
  {
    path: "Modules/DrawModules.xsd",
    doc: "Draw modules: model condition states name render objects (Model@Name) and animations.",
    types: [
      { kind: "complex", name: "ScriptedModelDrawModel", attrs: ["Name RenderObjectRef !"] },
      {
        kind: "complex",
        name: "BoneAttachPoint",
        attrs: ["WeaponSlotID SageInt =1", "WeaponSlotType WeaponSlotType =PRIMARY_WEAPON", "BoneName xs:string"],
      },
      {
        kind: "complex",
        name: "ParticleSysBone",
        attrs: ["BoneName xs:string !", "FXParticleSystemTemplate FXParticleSystemRef !", "FollowBone SageBool =false"],
      },
      {
        kind: "complex",
        name: "TurretInfo",
        attrs: ["TurretNameKey xs:string", "TurretPitch xs:string", "TurretID SageInt =1"],
      },
      {
        kind: "complex",
        name: "ModelConditionState",
        children: [
          "Model ScriptedModelDrawModel *",
          "WeaponFireFXBone BoneAttachPoint *",
          "WeaponRecoilBone BoneAttachPoint *",
          "WeaponLaunchBone BoneAttachPoint *",
          "ParticleSysBone ParticleSysBone *",
          "Turret TurretInfo *",
        ],
        attrs: [
          "ParseCondStateType ParseCondStateType =PARSE_NORMAL",
          "ConditionsYes ModelConditionBitFlags",
          "RetainSubObjects SageBool =false",
        ],
      },
      {
        kind: "complex",
        name: "Animation",
        attrs: [
          "AnimationName AssetReference @W3DAnimation",
          "AnimationMode AnimationMode =ONCE",
          "AnimationBlendTime SageReal =5",
          "AnimationSpeedFactorMin SageReal =1",
          "AnimationSpeedFactorMax SageReal =1",
        ],
      },
      {
        kind: "complex",
        name: "AnimationState",
        children: ["Animation Animation *"],
        attrs: [
          "ParseCondStateType ParseCondStateType !",
          "ConditionsYes ModelConditionBitFlags",
          "StateName xs:string",
          "EnteringStateFX FXListRef",
        ],
      },
      {
        kind: "complex",
        name: "W3DScriptedModelDrawModuleData",
        base: "DrawModuleData",
        children: ["ModelConditionState ModelConditionState *", "AnimationState AnimationState *"],
        attrs: [
          "OkToChangeModelColor SageBool =false",
          "InitialRecoilSpeed Velocity =2",
          "MaxRecoilDistance SageReal =3",
          "RecoilDamping SageReal =0.4",
          "RecoilSettleSpeed Velocity =0.065",
          "ExtraPublicBone xs:string",
        ],
      },
      {
        kind: "complex",
        name: "W3DTruckDrawModuleData",
        base: "W3DScriptedModelDrawModuleData",
        attrs: [
          "LeftFrontTireBone xs:string",
          "RightFrontTireBone xs:string",
          "TireRotationMultiplier SageReal =1",
          "TrackMarks xs:string",
          "TrackMarksLeftBone xs:string",
          "TrackMarksRightBone xs:string",
        ],
      },
      {
        kind: "complex",
        name: "DrawModules",
        choice: true,
        children: ["ScriptedModelDraw W3DScriptedModelDrawModuleData", "TruckDraw W3DTruckDrawModuleData"],
      },
    ],
  },
  {
    path: "Modules/BehaviorModules.xsd",
    doc: "Body, behavior and AI modules. <Weapon> is WeaponSlot_WeaponData inside a weapon slot.",
    types: [
      {
        kind: "complex",
        name: "ActiveBodyModuleData",
        base: "BodyModuleData",
        attrs: ["MaxHealth SageReal =1", "InitialHealth SageReal"],
      },
      { kind: "complex", name: "BodyModules", choice: true, children: ["ActiveBody ActiveBodyModuleData"] },
      { kind: "complex", name: "WeaponSlot_WeaponData", attrs: ["Ordering WeaponSlotType !", "Template WeaponRef !"] },
      {
        kind: "complex",
        name: "TurretSettingsType",
        attrs: ["TurretTurnRate Angle", "TurretPitchRate Angle", "AllowsPitch SageBool =false"],
      },
      {
        kind: "complex",
        name: "WeaponSlot_Turret",
        children: ["Weapon WeaponSlot_WeaponData *", "TurretSettings TurretSettingsType ?"],
        attrs: ["ID SageInt !", "AllowInterleavedFiring SageBool =false"],
      },
      {
        kind: "complex",
        name: "WeaponSlot_Hardpoint",
        children: ["Weapon WeaponSlot_WeaponData *"],
        attrs: ["ID SageInt !", "AllowInterleavedFiring SageBool =false"],
      },
      {
        kind: "complex",
        name: "WeaponSetUpdateModuleData",
        base: "UpdateModuleData",
        children: ["WeaponSlotTurret WeaponSlot_Turret *", "WeaponSlotHardpoint WeaponSlot_Hardpoint *"],
      },
      {
        kind: "complex",
        name: "CreateObjectDieModuleData",
        base: "DieModuleData",
        children: ["UpgradeRequired UpgradeTemplateRef *"],
        attrs: ["CreationList ObjectCreationListRef"],
      },
      { kind: "complex", name: "FXListBehaviorEvent", attrs: ["Index FXEventIndex !", "FX FXListRef !"] },
      {
        kind: "complex",
        name: "FXListBehaviorModuleData",
        base: "BehaviorModuleData",
        children: ["DieMuxData DieMuxDataType ?", "Event FXListBehaviorEvent *"],
      },
      {
        kind: "complex",
        name: "SpecialPowerModuleData",
        base: "BehaviorModuleData",
        attrs: [
          "SpecialPowerTemplate SpecialPowerTemplateRef !",
          "UpdateModuleStartsAttack SageBool =false",
          "InitiateSound AudioEventInfoRef",
        ],
      },
      {
        kind: "complex",
        name: "ActivateModuleSpecialAbilityUpdateModuleData",
        base: "UpdateModuleData",
        doc:
          "ModuleId names a module of the same object (possibly spliced in by xi:include): a Poid, never a global reference.",
        attrs: ["SpecialPowerTemplate SpecialPowerTemplateRef", "ModuleId Poid @ModuleData", "UnpackTime Time =0s"],
      },
      {
        kind: "complex",
        name: "StatusBitsUpgradeModuleData",
        base: "UpgradeModuleData",
        attrs: ["StatusToSet ObjectStatusBitFlags"],
      },
      {
        kind: "complex",
        name: "FireWeaponWhenDeadModuleData",
        base: "DieModuleData",
        attrs: ["DeathWeapon WeaponRef", "InitiallyActive SageBool =true"],
      },
      { kind: "complex", name: "SlowDeathFX", attrs: ["Type SlowDeathPhaseType !", "List FXListRef !"] },
      { kind: "complex", name: "SlowDeathOCL", attrs: ["Type SlowDeathPhaseType !", "List ObjectCreationListRef !"] },
      {
        kind: "complex",
        name: "SlowDeathBehaviorModuleData",
        base: "DieModuleData",
        children: ["FX SlowDeathFX *", "OCL SlowDeathOCL *"],
        attrs: ["DestructionDelay Time =0s", "SinkDelay Time =0s", "SinkRate SageReal =0"],
      },
      {
        kind: "complex",
        name: "ArmorUpgradeModuleData",
        base: "UpgradeModuleData",
        attrs: ["ArmorSetFlag ArmorSetFlag =PLAYER_UPGRADE"],
      },
      {
        kind: "complex",
        name: "WeaponSetUpgradeModuleData",
        base: "UpgradeModuleData",
        attrs: ["WeaponSetFlag WeaponSetFlag =PLAYER_UPGRADE"],
      },
      {
        kind: "complex",
        name: "ModelConditionUpgradeModuleData",
        base: "UpgradeModuleData",
        attrs: ["AddConditionFlags ModelConditionBitFlags", "RemoveConditionFlags ModelConditionBitFlags"],
      },
      {
        kind: "complex",
        name: "PhysicsBehaviorModuleData",
        base: "UpdateModuleData",
        attrs: [
          "Mass SageReal =1",
          "AerodynamicFriction SageReal =0",
          "ForwardFriction SageReal =0",
          "CenterOfMassOffset SageReal =0",
          "AllowBouncing SageBool =false",
        ],
      },
      {
        kind: "complex",
        name: "BehaviorModules",
        choice: true,
        children: [
          "WeaponSetUpdate WeaponSetUpdateModuleData",
          "CreateObjectDie CreateObjectDieModuleData",
          "FXListBehavior FXListBehaviorModuleData",
          "SpecialPower SpecialPowerModuleData",
          "ActivateModuleSpecialAbilityUpdate ActivateModuleSpecialAbilityUpdateModuleData",
          "StatusBitsUpgrade StatusBitsUpgradeModuleData",
          "ArmorUpgrade ArmorUpgradeModuleData",
          "WeaponSetUpgrade WeaponSetUpgradeModuleData",
          "ModelConditionUpgrade ModelConditionUpgradeModuleData",
          "FireWeaponWhenDead FireWeaponWhenDeadModuleData",
          "SlowDeath SlowDeathBehaviorModuleData",
          "PhysicsBehavior PhysicsBehaviorModuleData",
        ],
      },
      {
        kind: "complex",
        name: "AIUpdateModuleData",
        base: "UpdateModuleData",
        attrs: ["AutoAcquireEnemiesWhenIdle AutoAcquireEnemiesType =NO", "MoodAttackCheckRate SageInt =0"],
      },
      { kind: "complex", name: "AIModules", choice: true, children: ["AIUpdate AIUpdateModuleData"] },
      { kind: "complex", name: "ClientBehaviorModuleData", base: "ModuleData" },
      {
        kind: "complex",
        name: "AnimationSoundType",
        doc: "Animation is a weak reference whose target type is given on the attribute.",
        attrs: ["Sound AudioEventInfoRef !", "Animation WeakReference @W3DAnimation !", "Frames xs:string"],
      },
      {
        kind: "complex",
        name: "AnimationSoundClientBehaviorModuleData",
        base: "ClientBehaviorModuleData",
        children: ["AnimationSound AnimationSoundType *"],
        attrs: ["MaxUpdateRangeCap SageReal =0"],
      },
      {
        kind: "complex",
        name: "ModelConditionSoundType",
        attrs: [
          "Sound AudioEventInfoRef !",
          "RequiredFlags ModelConditionBitFlags",
          "ExcludedFlags ModelConditionBitFlags",
        ],
      },
      {
        kind: "complex",
        name: "ModelConditionAudioLoopClientBehaviorModuleData",
        base: "ClientBehaviorModuleData",
        children: ["ModelConditionSound ModelConditionSoundType *"],
      },
      {
        kind: "complex",
        name: "ClientBehaviorModules",
        choice: true,
        children: [
          "AnimationSoundClientBehavior AnimationSoundClientBehaviorModuleData",
          "ModelConditionAudioLoopClientBehavior ModelConditionAudioLoopClientBehaviorModuleData",
        ],
      },
    ],
  },
  {
    path: "AssetTypeGameObject.xsd",
    doc: "Game objects and what hangs off them: armor and locomotor sets, sounds, creation lists.",
    types: [
      { kind: "complex", name: "BuildCostType", attrs: ["Account SageUnsignedInt =0", "Amount SageUnsignedInt =0"] },
      { kind: "complex", name: "ObjectResourceInfoType", children: ["BuildCost BuildCostType *"] },
      {
        kind: "complex",
        name: "GameDependencyType",
        children: ["RequiredObject GameObjectWeakRef *", "RequiredUpgrade UpgradeTemplateWeakRef *"],
      },
      {
        kind: "complex",
        name: "ArmorSetType",
        doc: "Armor is a generic reference whose target is given on the attribute itself.",
        attrs: ["Armor AssetReference @ArmorTemplate", "DamageFX DamageFXRef", "Conditions ArmorSetFlags"],
      },
      {
        kind: "complex",
        name: "LocomotorSet",
        attrs: [
          "id Poid",
          "Locomotor AssetReference @LocomotorTemplate !",
          "Condition LocomotorSetType =NORMAL",
          "Speed Velocity",
        ],
      },
      {
        kind: "complex",
        name: "GeometryShape",
        children: ["Offset Vector3 ?"],
        attrs: [
          "Type GeometryShapeType !",
          "MajorRadius SageReal =0",
          "MinorRadius SageReal =0",
          "Height SageReal =0",
          "IsActive SageBool =true",
        ],
      },
      {
        kind: "complex",
        name: "GeometryInfo",
        children: ["Shape GeometryShape +"],
        attrs: ["IsSmall SageBool =false", "IsInfantry SageBool =false"],
      },
      { kind: "complex", name: "AudioVoiceEntry", attrs: ["Sound AudioEventInfoRef !", "AudioType AudioTypeEnum !"] },
      { kind: "complex", name: "AudioArrayVoice", children: ["AudioEntry AudioVoiceEntry *"] },
      { kind: "complex", name: "AudioArraySound", children: ["AudioEntry AudioVoiceEntry *"] },
      {
        kind: "complex",
        name: "GameObject",
        base: "BaseInheritableAsset",
        children: [
          "DisplayName xs:string ?",
          "ObjectResourceInfo ObjectResourceInfoType ?",
          "GameDependency GameDependencyType ?",
          "ArmorSet ArmorSetType *",
          "LocomotorSet LocomotorSet *",
          "AudioArrayVoice AudioArrayVoice ?",
          "AudioArraySound AudioArraySound ?",
          "Draws DrawModules ?",
          "Body BodyModules ?",
          "Behaviors BehaviorModules ?",
          "AI AIModules ?",
          "ClientBehaviors ClientBehaviorModules ?",
          "Geometry GeometryInfo ?",
        ],
        attrs: [
          "KindOf KindOfBitFlags",
          "Side PlayerTemplateWeakRef",
          "CommandSet LogicCommandSetRef",
          "EditorName xs:string",
          "Description xs:string",
          "TypeDescription xs:string",
          "SelectPortrait xs:string",
          "ButtonImage xs:string",
          "EditorSorting EditorSortingType",
          "BuildTime SageReal =0",
          "VisionRange SageReal =0",
          "ShroudClearingRange SageReal =0",
          "SubGroupPriority SageInt =0",
          "VoicePriority SageInt =0",
          "HealthBoxHeightOffset SageReal =0",
        ],
      },
      {
        kind: "complex",
        name: "PlayerTemplate",
        base: "BaseInheritableAsset",
        doc: "Sides live in vanilla data: a mod refers to them and rarely defines one.",
        attrs: ["Side xs:string"],
      },
      {
        kind: "complex",
        name: "DamageFX",
        base: "BaseInheritableAsset",
        doc: "Vanilla damage effects, referenced by ArmorSet@DamageFX.",
      },
      {
        kind: "complex",
        name: "LocomotorTemplate",
        base: "BaseInheritableAsset",
        attrs: [
          "Surfaces LocomotorSurfaceBitFlags",
          "Speed Velocity",
          "SpeedDamaged Velocity",
          "TurnRate Angle",
          "Acceleration SageReal",
          "Braking SageReal",
          "TurnTimeSeconds Time",
          "Appearance LocomotorAppearance",
          "BehaviorZ LocomotorBehaviorZ",
          "PitchStiffness SageReal",
          "RollStiffness SageReal",
          "PitchDamping SageReal",
          "RollDamping SageReal",
          "PreferredHeight SageReal",
        ],
      },
      {
        kind: "complex",
        name: "CreateObjectNugget",
        children: ["CreateObject GameObjectWeakRef *"],
        attrs: [
          "Options OCLCreateObjectOptions",
          "Disposition OCLDispositionFlags",
          "Count SageInt =1",
          "MinLifetime Time",
          "MaxLifetime Time",
        ],
      },
      {
        kind: "complex",
        name: "ObjectCreationList",
        base: "BaseAssetType",
        doc: "Not inheritable: extends BaseAssetType directly.",
        children: ["CreateObject CreateObjectNugget *"],
      },
      { kind: "complex", name: "ArmorListType", attrs: ["Damage DamageType !", "Percent Percentage !"] },
      {
        kind: "complex",
        name: "ArmorTemplate",
        base: "BaseInheritableAsset",
        children: ["Armor ArmorListType *"],
        attrs: ["SideDamageScalar Percentage =100%", "RearDamageScalar Percentage =100%", "FlankedScalar SageReal =1"],
      },
    ],
  },
  {
    path: "AssetTypeWeaponTemplate.xsd",
    doc: "Weapons and their effect nuggets.",
    types: [
      {
        kind: "complex",
        name: "WeaponEffectNugget",
        polymorphic: true,
        children: ["RequiredUpgrade UpgradeTemplateWeakRef *"],
        attrs: ["Radius SageReal =0"],
      },
      {
        kind: "complex",
        name: "DamageNuggetType",
        base: "WeaponEffectNugget",
        attrs: [
          "Damage SageReal =0",
          "DamageTaperOff SageReal",
          "DamageType DamageType =EXPLOSION",
          "DeathType DeathType =NORMAL",
        ],
      },
      {
        kind: "complex",
        name: "ProjectileNuggetType",
        base: "WeaponEffectNugget",
        attrs: ["ProjectileTemplate GameObjectRef", "WarheadTemplate WeaponRef"],
      },
      { kind: "complex", name: "FireWeaponNuggetType", base: "WeaponEffectNugget", attrs: ["WeaponName WeaponRef !"] },
      {
        kind: "complex",
        name: "AttachNuggetType",
        base: "WeaponEffectNugget",
        doc: "A module of the target object: a Poid.",
        attrs: ["AttachModuleId Poid @ModuleData !"],
      },
      {
        kind: "complex",
        name: "WeaponTemplateNuggets",
        choice: true,
        children: [
          "DamageNugget DamageNuggetType",
          "ProjectileNugget ProjectileNuggetType",
          "FireWeaponNugget FireWeaponNuggetType",
          "AttachNugget AttachNuggetType",
        ],
      },
      {
        kind: "complex",
        name: "WeaponTemplate",
        base: "BaseInheritableAsset",
        children: [
          "FiringDuration RangeDuration ?",
          "ClipReloadTime RangeDuration ?",
          "Nuggets WeaponTemplateNuggets ?",
        ],
        attrs: [
          "AttackRange SageReal =0",
          "MinimumAttackRange SageReal =0",
          "RangeBonusMinHeight SageReal =0",
          "RangeBonus SageReal =0",
          "RequestAssistRange SageReal =0",
          "WeaponSpeed SageReal =99999",
          "MinWeaponSpeed SageReal =99999",
          "MaxWeaponSpeed SageReal =99999",
          "ScatterRadius SageReal =0",
          "ScatterLength SageReal =0",
          "ScatterIndependently SageBool =false",
          "AcceptableAimDelta Angle =0d",
          "AimDirection Angle =0d",
          "IdleAfterFiringDelaySeconds Time =-1s",
          "HoldAfterFiringDelaySeconds Time =0s",
          "WeaponRecoil Angle =0d",
          "MinTargetPitch Angle =-180d",
          "MaxTargetPitch Angle =180d",
          "ShotsPerBarrel SageInt =0",
          "ContinueAttackRange SageReal =0",
          "ClipSize SageInt =0",
          "CanFireWhileMoving SageBool =false",
          "FireSound AudioEventInfoRef",
          "FireFX FXListRef",
          "FireVeteranFX FXListRef",
          "PreAttackFX FXListRef",
        ],
      },
    ],
  },
  {
    path: "AssetTypeFXList.xsd",
    doc: "FX lists extend BaseAssetType directly (not inheritable), yet are referenced through FXListRef.",
    types: [
      { kind: "complex", name: "FXNugget", polymorphic: true },
      { kind: "complex", name: "SoundFXNugget", base: "FXNugget", attrs: ["Value AudioEventInfoRef !"] },
      {
        kind: "complex",
        name: "ParticleSystemFXNugget",
        base: "FXNugget",
        children: [
          "Offset Vector3 ?",
          "Radius RandomVariable ?",
          "Height RandomVariable ?",
          "InitialDelay RandomVariable ?",
        ],
        attrs: [
          "Particle FXParticleSystemRef !",
          "Count SageInt =1",
          "OrientToObject SageBool =false",
          "Ricochet SageBool =false",
          "CreateAtGroundHeight SageBool =false",
          "UseTarget SageBool =false",
          "CreateOverrideBone xs:string",
        ],
      },
      {
        kind: "complex",
        name: "LightPulseFXNugget",
        base: "FXNugget",
        children: ["Color RGBColor"],
        attrs: ["Radius SageReal =0", "IncreaseTime Time =0s", "DecreaseTime Time =0s"],
      },
      { kind: "complex", name: "ViewShakeFXNugget", base: "FXNugget", attrs: ["Type ViewShakeType =NORMAL"] },
      {
        kind: "complex",
        name: "FXNuggetTypes",
        choice: true,
        children: [
          "Sound SoundFXNugget",
          "ParticleSystem ParticleSystemFXNugget",
          "LightPulse LightPulseFXNugget",
          "ViewShake ViewShakeFXNugget",
        ],
      },
      { kind: "complex", name: "FXList", base: "BaseAssetType", children: ["NuggetList FXNuggetTypes"] },
    ],
  },
  {
    path: "AssetTypeFXParticleSystem.xsd",
    doc: "Particle systems. <Color> is a key frame inside <Colors> and a plain colour inside a key frame.",
    types: [
      {
        kind: "complex",
        name: "ColorKeyframe",
        children: ["Color RGBColor"],
        attrs: ["Frame SageInt !", "RelativeAge SageReal !"],
      },
      { kind: "complex", name: "ParticleColors", children: ["Color ColorKeyframe *", "ColorScale RandomVariable ?"] },
      {
        kind: "complex",
        name: "DefaultPhysics",
        children: ["VelocityDamping RandomVariable ?"],
        attrs: ["Gravity SageReal =0"],
      },
      { kind: "complex", name: "ParticlePhysics", children: ["Default DefaultPhysics ?"] },
      {
        kind: "complex",
        name: "GpuDraw",
        attrs: ["Shader xs:string", "SpeedMultiplier SageReal =1", "MiscValue1 SageReal =0", "MiscValue2 SageReal =0"],
      },
      { kind: "complex", name: "ParticleDraw", children: ["Gpu GpuDraw ?"] },
      { kind: "complex", name: "SphereVolume", attrs: ["Radius SageReal =0", "IsHollow SageBool =false"] },
      { kind: "complex", name: "ParticleVolume", children: ["Sphere SphereVolume ?"] },
      { kind: "complex", name: "XYZRandom", children: ["x RandomVariable", "y RandomVariable", "z RandomVariable"] },
      { kind: "complex", name: "OrthoVelocity", children: ["Position XYZRandom"] },
      { kind: "complex", name: "ParticleVelocity", children: ["Ortho OrthoVelocity ?"] },
      {
        kind: "complex",
        name: "DefaultUpdate",
        children: [
          "SizeRate RandomVariable ?",
          "SizeRateDamping RandomVariable ?",
          "AngleZ RandomVariable ?",
          "AngularRateZ RandomVariable ?",
          "AngularDamping RandomVariable ?",
        ],
      },
      { kind: "complex", name: "ParticleUpdate", children: ["Default DefaultUpdate ?"] },
      {
        kind: "complex",
        name: "FXParticleSystemTemplate",
        base: "BaseInheritableAsset",
        children: [
          "Lifetime RandomVariable ?",
          "SystemLifetimeRange RandomVariable ?",
          "Size RandomVariable ?",
          "BurstDelay RandomVariable ?",
          "BurstCount RandomVariable ?",
          "Colors ParticleColors ?",
          "Physics ParticlePhysics ?",
          "Draw ParticleDraw ?",
          "Volume ParticleVolume ?",
          "Velocity ParticleVelocity ?",
          "Update ParticleUpdate ?",
        ],
        attrs: [
          "ParticleTexture TextureRef",
          "PerParticleAttachedSystem FXParticleSystemRef",
          "SlaveSystem FXParticleSystemRef",
          "Priority ParticleSystemPriority",
          "Type ParticleSystemType =NORMAL",
          "SystemLifetime SageInt =0",
          "SortLevel SageInt =0",
          "IsParticleUpTowardsEmitter SageBool =false",
          "IsOneShot SageBool =false",
        ],
      },
    ],
  },
  {
    path: "AssetTypeAudio.xsd",
    doc: "Audio: files on disk, events that play them, multisounds that pick events.",
    types: [
      {
        kind: "complex",
        name: "AudioFile",
        base: "BaseAssetType",
        attrs: [
          "File FileReference !",
          "PCSampleRate SageInt",
          "PCCompression PCAudioCompressionSetting",
          "IsStreamedOnPC SageBool",
          "SubtitleStringName xs:string",
        ],
      },
      {
        kind: "complex",
        name: "AudioFileRefWithWeight",
        base: "AudioFileRef",
        simpleContent: true,
        isRef: true,
        refType: "AudioFile",
        doc: "Element text is the AudioFile id; the attributes are extra data.",
        attrs: ["Weight SageUnsignedInt =1000", "Volume Percentage =100"],
      },
      {
        kind: "complex",
        name: "MultisoundSubsoundRef",
        base: "AssetReference",
        simpleContent: true,
        isRef: true,
        refType: "BaseAudioEventInfo",
        doc: "The reference type comes from the complex type itself, over its base's.",
        attrs: ["Weight SageUnsignedInt =1000"],
      },
      {
        kind: "complex",
        name: "VolumeSliderMultiplier",
        attrs: ["Slider AudioVolumeSlider !", "Multiplier SageReal =1"],
      },
      {
        kind: "complex",
        name: "BaseAudioEventInfo",
        base: "BaseInheritableAsset",
        attrs: [
          "Volume Percentage =100",
          "MinVolume Percentage =0",
          "Limit SageInt =0",
          "Priority AudioPriority =NORMAL",
          "Type AudioTypeBitFlags",
          "Control AudioControlBitFlags",
          "SubmixSlider AudioVolumeSlider",
        ],
      },
      {
        kind: "complex",
        name: "AudioEvent",
        base: "BaseAudioEventInfo",
        children: [
          "Sound AudioFileRefWithWeight *",
          "Attack AudioFileRef *",
          "Decay AudioFileRef *",
          "PitchShift RandomVariable ?",
          "VolumeShift RandomVariable ?",
          "VolumeSliderMultiplier VolumeSliderMultiplier *",
        ],
      },
      {
        kind: "complex",
        name: "Multisound",
        base: "BaseAudioEventInfo",
        children: ["Subsound MultisoundSubsoundRef +"],
      },
    ],
  },
  {
    path: "AssetTypeLogicCommand.xsd",
    doc: "Commands and the command sets a GameObject's CommandSet names.",
    types: [
      {
        kind: "complex",
        name: "LogicCommand",
        base: "BaseInheritableAsset",
        children: ["SpecialPower SpecialPowerTemplateRef ?", "Upgrade UpgradeTemplateRef ?", "Object GameObjectRef ?"],
        attrs: ["Type LogicCommandType =NONE"],
      },
      { kind: "complex", name: "LogicCommandSet", base: "BaseInheritableAsset", children: ["Cmd LogicCommandRef *"] },
    ],
  },
  {
    path: "AssetTypeSpecialPowerTemplate.xsd",
    doc: "Special powers and upgrades.",
    types: [
      {
        kind: "complex",
        name: "SpecialPowerTemplate",
        base: "BaseInheritableAsset",
        children: ["GameDependency GameDependencyType ?"],
        attrs: [
          "TargetType SpecialPowerTargetType =NONE",
          "Flags SpecialPowerBitFlags",
          "ReloadTime Time =0s",
          "RadiusCursorRadius SageReal =0",
          "InitiateSound AudioEventInfoRef",
          "InitiateAtLocationSound AudioEventInfoRef",
          "WaypointModeTerminal SageBool =true",
        ],
      },
      {
        kind: "complex",
        name: "UpgradeTemplate",
        base: "BaseInheritableAsset",
        children: ["GameDependency GameDependencyType ?"],
        attrs: [
          "Type UpgradeType =PLAYER",
          "BuildTime Time =0s",
          "BuildCost SageInt =0",
          "ResearchSound AudioEventInfoRef",
          "UnitSpecificSound AudioEventInfoRef",
          "DisplayName xs:string",
          "IconImage xs:string",
        ],
      },
    ],
  },
  {
    path: "AssetTypeTexture.xsd",
    doc: "Textures: a file on disk plus compiler settings.",
    types: [
      {
        kind: "complex",
        name: "Texture",
        base: "BaseAssetType",
        attrs: [
          "File FileReference !",
          "OutputFormat TextureFormat",
          "GenerateMipMaps SageBool =true",
          "AllowAutomaticResize SageBool =true",
        ],
      },
    ],
  },
  {
    path: "AssetTypeW3D.xsd",
    doc:
      "Art (.w3x). Meshes and containers are render objects; a hierarchy (skeleton) and an animation are assets but not render objects.",
    types: [
      { kind: "complex", name: "BaseRenderAssetType", base: "BaseAssetType", abstract: true },
      { kind: "complex", name: "BoxMinMax", children: ["Min Vector3", "Max Vector3"] },
      { kind: "complex", name: "SphereCenterRadius", children: ["Center Vector3"], attrs: ["Radius SageReal =0"] },
      {
        kind: "complex",
        name: "MeshVectors",
        doc: "<V> is a point here and a vertex index inside <T>.",
        children: ["V Vector3 *"],
      },
      { kind: "complex", name: "MeshTexCoords", children: ["T Vector3 *"] },
      { kind: "complex", name: "Triangle", children: ["V xs:unsignedInt +", "Nrm Vector3 ?"] },
      { kind: "complex", name: "MeshTriangles", children: ["T Triangle *"] },
      {
        kind: "complex",
        name: "W3DMesh",
        base: "BaseRenderAssetType",
        children: [
          "BoundingBox BoxMinMax",
          "BoundingSphere SphereCenterRadius ?",
          "Vertices MeshVectors ?",
          "Normals MeshVectors ?",
          "TexCoords MeshTexCoords ?",
          "Triangles MeshTriangles ?",
        ],
        attrs: ["GeometryType MeshGeometryType !"],
      },
      { kind: "complex", name: "RenderSubObjectReference", children: ["Mesh AssetReference @W3DMesh"] },
      {
        kind: "complex",
        name: "SubObject",
        children: ["RenderObject RenderSubObjectReference"],
        attrs: ["SubObjectID xs:string !", "BoneIndex xs:unsignedInt !"],
      },
      {
        kind: "complex",
        name: "W3DContainer",
        base: "BaseRenderAssetType",
        children: ["SubObject SubObject *"],
        attrs: ["Hierarchy AssetReference @W3DHierarchy"],
      },
      {
        kind: "complex",
        name: "HierarchyPivot",
        children: ["Translation Vector3", "Rotation Quaternion"],
        attrs: ["Name xs:string !", "Parent xs:int !"],
      },
      { kind: "complex", name: "W3DHierarchy", base: "BaseAssetType", children: ["Pivot HierarchyPivot +"] },
      {
        kind: "complex",
        name: "AnimationChannelQuaternion",
        children: ["Frame Quaternion *"],
        attrs: ["Pivot xs:unsignedInt !", "FirstFrame xs:unsignedInt =0"],
      },
      {
        kind: "complex",
        name: "AnimationChannelScalar",
        children: ["Frame SageReal *"],
        attrs: ["Pivot xs:unsignedInt !", "Type AnimationChannelType !", "FirstFrame xs:unsignedInt =0"],
      },
      {
        kind: "complex",
        name: "AnimationChannels",
        choice: true,
        children: ["ChannelScalar AnimationChannelScalar", "ChannelQuaternion AnimationChannelQuaternion"],
      },
      {
        kind: "complex",
        name: "W3DAnimation",
        base: "BaseAssetType",
        children: ["Channels AnimationChannels"],
        attrs: ["Hierarchy AssetReference @W3DHierarchy", "NumFrames xs:unsignedInt", "FrameRate xs:unsignedInt"],
      },
    ],
  },
  {
    path: "AssetTypeMisc.xsd",
    doc:
      "Global-stream settings, and UnitAbilityButtonTemplate: a kind only Red Alert 3 has, which is how tools tell this schema from a C&C3 one.",
    types: [
      {
        kind: "complex",
        name: "CameraSettings",
        base: "BaseAssetType",
        attrs: ["MaxCameraHeight SageReal =300", "MinCameraHeight SageReal =100", "PitchAngle Angle"],
      },
      {
        kind: "complex",
        name: "MultiplayerSettings",
        base: "BaseAssetType",
        attrs: ["StartCountdownTimer SageUnsignedInt =5", "MaxBeaconsPerPlayer SageUnsignedInt =3"],
      },
      { kind: "complex", name: "UnitAbilityButtonSlot", attrs: ["LogicCommand LogicCommandRef !", "Index SageInt !"] },
      {
        kind: "complex",
        name: "UnitAbilityButtonTemplate",
        base: "BaseInheritableAsset",
        children: ["Slot UnitAbilityButtonSlot *"],
      },
    ],
  },
];

/** Children of `AssetDeclaration`: the top-level asset kinds, element name = type name. */
export const ASSET_ELEMENTS: readonly string[] = [
  "GameObject",
  "WeaponTemplate",
  "ArmorTemplate",
  "LocomotorTemplate",
  "ObjectCreationList",
  "LogicCommand",
  "LogicCommandSet",
  "SpecialPowerTemplate",
  "UpgradeTemplate",
  "FXList",
  "FXParticleSystemTemplate",
  "AudioFile",
  "AudioEvent",
  "Multisound",
  "Texture",
  "PlayerTemplate",
  "DamageFX",
  "W3DMesh",
  "W3DContainer",
  "W3DHierarchy",
  "W3DAnimation",
  "CameraSettings",
  "MultiplayerSettings",
  "UnitAbilityButtonTemplate",
];

/** Root elements of the xi:include fragments under `Data/Includes/` (global elements): name → type. */
export const FRAGMENT_ROOTS: readonly (readonly [string, string])[] = [
  ["HeadlightDraws", "DrawModules"],
  ["MuzzleFlashDraws", "DrawModules"],
  ["VehicleDeathBehaviors", "BehaviorModules"],
  ["InfantryDeathBehaviors", "BehaviorModules"],
  ["StructureDeathBehaviors", "BehaviorModules"],
  ["CommonDeathBehaviors", "BehaviorModules"],
  ["VeterancyBehaviors", "BehaviorModules"],
  ["CrushRepairBehaviors", "BehaviorModules"],
];

function ref(name: string, target: string, weak = false): SimpleSpec {
  return { kind: "simple", name, base: weak ? "WeakReference" : "AssetReference", isRef: true, refType: target };
}

/** Parses an attribute declaration (see the module comment). Throws on a malformed one (a bug in the table). */
export function parseAttr(spec: string): AttrSpec {
  const [name, type, ...rest] = spec.split(" ");
  if (!name || !type) throw new Error(`bad attribute spec "${spec}"`);
  let refType: string | null = null;
  let required = false;
  let defaultValue: string | null = null;
  for (const t of rest) {
    if (t.startsWith("@")) refType = t.slice(1);
    else if (t === "!") required = true;
    else if (t.startsWith("=")) defaultValue = t.slice(1);
    else throw new Error(`bad attribute spec "${spec}"`);
  }
  return { name, type, refType, required, defaultValue };
}

/** Parses a child element declaration (see the module comment). Throws on a malformed one. */
export function parseChild(spec: string): ChildSpec {
  const [name, type, ...rest] = spec.split(" ");
  if (!name || !type) throw new Error(`bad child spec "${spec}"`);
  let min = 1;
  let max = 1;
  let refType: string | null = null;
  for (const t of rest) {
    if (t === "?") [min, max] = [0, 1];
    else if (t === "*") [min, max] = [0, -1];
    else if (t === "+") [min, max] = [1, -1];
    else if (t.startsWith("@")) refType = t.slice(1);
    else throw new Error(`bad child spec "${spec}"`);
  }
  return { name, type, min, max, refType };
}

/** Element and attribute names the schema declares anywhere (plus the structural ones). */
export interface DeclaredNames {
  readonly elements: ReadonlySet<string>;
  readonly attributes: ReadonlySet<string>;
}

/** Every element name and attribute name declared by the table. */
export function declaredNames(): DeclaredNames {
  const elements = new Set<string>([
    "AssetDeclaration",
    "Tags",
    "Tag",
    "Includes",
    "Include",
    "Defines",
    "Define",
    ...ASSET_ELEMENTS,
    ...FRAGMENT_ROOTS.map((r) => r[0]),
  ]);
  const attributes = new Set<string>();
  for (const f of XSD_FILES) {
    for (const t of f.types) {
      if (t.kind !== "complex") continue;
      for (const c of t.children ?? []) elements.add(parseChild(c).name);
      for (const a of t.attrs ?? []) attributes.add(parseAttr(a).name);
    }
  }
  return { elements, attributes };
}
