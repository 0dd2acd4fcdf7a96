/**
 * Which SAGE game an XSD set belongs to, told from its asset kinds (the children of
 * `AssetDeclaration`). Red Alert 3 has ~180 kinds that C&C3 lacks and lacks ~16 of C&C3's; Tiberium
 * Wars and Kane's Wrath share a lineage and differ mostly in how many kinds they have.
 */
import type { GameId } from "./model.ts";

/** Kinds that only Red Alert 3 (and Uprising) declare; one is enough, modded sets keep them. */
const RA3_MARKERS = [
  "RedAlertTemplate",
  "PlayerTechStoreTemplate",
  "UnitAbilityButtonTemplate",
  "PlayerPowerButtonTemplate",
  "PurchasePlayerTechButtonTemplate",
];
/** Kinds of the C&C3 lineage (Tiberium Wars, Kane's Wrath) that Red Alert 3 dropped. */
const CNC3_MARKERS = [
  "InGameUISettings",
  "RadiusCursorLibrary",
  "PlayerPowerButtonTemplateStore",
  "UnitAbilityButtonTemplateStore",
  "TheaterOfWarTemplate",
];
/**
 * Kane's Wrath adds kinds to Tiberium Wars (139 vs 127 measured). No KW set is at hand to pick marker
 * names from, so the count decides: a C&C3 set with at least this many kinds is taken for KW.
 */
const KW_MIN_KINDS = 134;

/**
 * The game of a schema whose asset kinds are `names`, or null when neither game's marker kinds occur
 * (e.g. a cut-down schema without them).
 * @example detectGameFromAssetKinds(["GameObject", "WeaponTemplate", "RedAlertTemplate"]) // "ra3"
 */
export function detectGameFromAssetKinds(names: readonly string[]): GameId | null {
  const set = new Set(names.map((n) => n.toLowerCase()));
  const has = (k: string) => set.has(k.toLowerCase());
  if (RA3_MARKERS.some(has)) return "ra3";
  if (CNC3_MARKERS.some(has)) return set.size >= KW_MIN_KINDS ? "kw" : "tw";
  return null;
}
