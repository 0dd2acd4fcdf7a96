import { describe, expect, test } from "bun:test";
import { detectGameFromAssetKinds } from "../../src/schema/game.ts";

describe("detectGameFromAssetKinds", () => {
  const common = ["GameObject", "WeaponTemplate", "FXList"];

  test("an RA3-only kind means Red Alert 3 (case-insensitive)", () => {
    expect(detectGameFromAssetKinds([...common, "PlayerTechStoreTemplate"])).toBe("ra3");
    expect(detectGameFromAssetKinds([...common, "unitabilitybuttontemplate"])).toBe("ra3");
  });

  test("a C&C3-only kind means Tiberium Wars, or Kane's Wrath with 134 kinds or more", () => {
    expect(detectGameFromAssetKinds([...common, "InGameUISettings"])).toBe("tw");
    const many = Array.from({ length: 130 }, (_, i) => `Kind${i}`);
    expect(detectGameFromAssetKinds([...common, "InGameUISettings", ...many])).toBe("kw");
    expect(detectGameFromAssetKinds([...common, "InGameUISettings", ...many.slice(0, 129)])).toBe("tw");
  });

  test("no marker: unknown", () => {
    expect(detectGameFromAssetKinds(common)).toBeNull();
    expect(detectGameFromAssetKinds([])).toBeNull();
  });
});
