/**
 * Names the engine looks up at run time: attributes the XSDs type as plain strings (`AssetId`,
 * `xs:string`, a list of `xs:string`), so the compiler records no dependency, whose value is nevertheless
 * the id of an asset the game finds by that id when it runs. Deleting that asset breaks them silently.
 * The indexer turns such a value into a reference of kind `name`, kept only when it is the id of an
 * existing asset assignable to the entry's target type.
 *
 * The table is data, and every entry carries its evidence. The counts come from
 * `bun scripts/survey-runtime-names.ts` (every plain-string attribute of the TW SDK's vanilla XML with its
 * Commander mod, and of Upheaval with the RA3 XSDs: how many written values are the id of an existing
 * asset, and of which types). An entry needs (a) nearly every value naming an asset of one kind, (b) a
 * value that names another asset (not the element's own asset, as `WeaponTemplate@Name` does), and (c) a
 * field whose meaning is that asset. Fields that merely coincide with ids (bone and sub-object names,
 * `Side`, map team names) are left out.
 */

/** One context: an attribute of elements of a schema type (and the types deriving from it). */
export interface RuntimeNameContext {
  /** The XSD complex type of the element holding the attribute. */
  readonly type: string;
  readonly attribute: string;
  /** The asset type the engine looks the value up as (a candidate must be assignable to it). */
  readonly target: string;
}

/** The contexts (TW counts are vanilla CnC3Xml plus the Commander mod; RA3 counts are Upheaval's). */
export const RUNTIME_NAMES: readonly RuntimeNameContext[] = [
  // AI build orders of the skirmish opening moves (runtime wrapper ::AIOpeningMoves): typed AssetId in both
  // XSD sets. TW: 654 of 654 values name a GameObject (50 distinct, e.g. Build="GDIPowerPlant"), the
  // Commander mod's GDICommanderCrane 11 of 11.
  { type: "SkirmishOpeningMoveOrder", attribute: "Build", target: "GameObject" },
  // Death sounds: Includes/Ref.xsd types AudioEventInfoRefList as a list of xs:string with the comment
  // "Should be AudioEventInfoRef but the compiler chokes" — the engine resolves the names itself. TW: 135
  // of 135 name a Multisound or AudioEvent (both BaseAudioEventInfo); Upheaval 20 of 56 (the rest are
  // vanilla sounds, not indexed without the SDK).
  { type: "SlowDeathSoundType", attribute: "List", target: "BaseAudioEventInfo" },
  // Campaign movies, typed xs:string (TW): every value is a VideoEventList id — BriefingMovie 29 of 29,
  // VictoryMovieName 10 of 10, IntroMovieName 17 of 18, FinalMovie 3 of 3, MovieEvent@MovieName 141 of
  // 176 (the rest name no asset of any kind).
  { type: "MissionTemplate", attribute: "BriefingMovie", target: "VideoEventList" },
  { type: "MissionTemplate", attribute: "VictoryMovieName", target: "VideoEventList" },
  { type: "MissionTemplate", attribute: "IntroMovieName", target: "VideoEventList" },
  { type: "CampaignTemplate", attribute: "FinalMovie", target: "VideoEventList" },
  { type: "MovieEvent", attribute: "MovieName", target: "VideoEventList" },
  // Images named by id (TW, AssetId or xs:string): MissionTemplate@LoadScreenImage 38 of 38 name a
  // PackedTextureImage, UpgradeTemplate@IconImage 16 of 17. RA3's XSDs type GameObject@ButtonImage and
  // @SelectPortrait as ImageWeakRef (refType PackedTextureImage); TW's as AssetId, where they name a
  // PackedTextureImage in 258 of 487 and 263 of 487 values (the others are images of texture sets outside
  // the corpus, which name no indexed asset).
  { type: "MissionTemplate", attribute: "LoadScreenImage", target: "PackedTextureImage" },
  { type: "UpgradeTemplate", attribute: "IconImage", target: "PackedTextureImage" },
  { type: "GameObject", attribute: "ButtonImage", target: "PackedTextureImage" },
  { type: "GameObject", attribute: "SelectPortrait", target: "PackedTextureImage" },
  // Decals of FX lists (AssetId in both sets). TW: 15 of 15 values name a Texture.
  { type: "DynamicDecalFXNugget", attribute: "Decal", target: "Texture" },
];
