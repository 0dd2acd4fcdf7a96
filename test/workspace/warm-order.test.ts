/**
 * Issue 15 item 2: a restart gives the same answers as a fresh build. A warm start installs the stored
 * records and re-reads the changed ones; the index's order (asset and site numbering, which duplicate is
 * blamed, the export's rows) must still be the fresh build's, compared here in order, not sorted.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SnapshotStore } from "../../src/store/snapshot-store.ts";
import { saveSnapshot, schemaKeyOf, warmStart } from "../../src/workspace/snapshots.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { copySample } from "./sample-copy.ts";
import { config, exported, fresh, ordered } from "./fresh-build.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

describe("a warm start equals a fresh build, in order", () => {
  for (const served of [false, true]) {
    test(`after a value edit, an edit creating a duplicate id, an added and a deleted file${served ? " (served first, as a server)" : ""}`, async () => {
      const { dir, home } = copySample(TMP, "ra3-warm-order-");
      const first = await fresh(dir, home);
      expect(saveSnapshot(first, new SnapshotStore(home, dir), schemaKeyOf(first.schema)).saved).toBe(true);

      // A value edit (a reference changed).
      const commands = join(dir, "Data", "Includes", "CommandSets.xml");
      writeFileSync(
        commands,
        readFileSync(commands, "utf8").replace("Command_AttackMove Command_Stop", "Command_Stop"),
      );
      // A duplicate of Weapons.xml's AthenaSplash, written into a file that comes before it.
      const cannon = join(dir, "Data", "Includes", "Allied Units", "AthenaCannon.xml");
      writeFileSync(
        cannon,
        readFileSync(cannon, "utf8").replace(
          "</AssetDeclaration>",
          '\t<WeaponTemplate id="AthenaSplash" AttackRange="1" />\n</AssetDeclaration>',
        ),
      );
      // An added file in the middle of the order, included by Mod.xml's tree; a deleted one.
      mkdirSync(join(dir, "Data", "Includes", "Added"));
      writeFileSync(
        join(dir, "Data", "Includes", "Added", "More.xml"),
        '<?xml version="1.0"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n\t<WeaponTemplate id="AddedWeapon" AttackRange="5" />\n</AssetDeclaration>\n',
      );
      const art = join(dir, "Data", "Includes", "Art.xml");
      writeFileSync(
        art,
        readFileSync(art, "utf8").replace(
          "</Includes>",
          '\t<Include type="all" source="Added/More.xml" />\n\t</Includes>',
        ),
      );
      rmSync(join(dir, "Data", "Standalone.xml"));

      const ws = new Workspace(config(dir, home));
      let servedStored = false;
      const warm = await warmStart(
        ws,
        new SnapshotStore(home, dir),
        schemaKeyOf(ws.schema),
        served ? () => (servedStored = true) : undefined,
      );
      expect(servedStored).toBe(served);
      if (!warm.warm) throw new Error(warm.reason);
      ws.close();
      const rel = (l: readonly string[]) => l.map((p) => p.slice(dir.length + 1)).sort();
      expect([rel(warm.update.changed), rel(warm.update.deleted)]).toEqual([
        [
          "Data/Includes/Added/More.xml",
          "Data/Includes/Allied Units/AthenaCannon.xml",
          "Data/Includes/Art.xml",
          "Data/Includes/CommandSets.xml",
        ],
        [],
      ]);

      const base = await fresh(dir, home);
      // The later definition (Weapons.xml) is the one blamed, as in a fresh build.
      expect(
        ws.linked!.diagnostics.filter((d) => d.code === "duplicate-id").map((d) =>
          `${d.file!.slice(dir.length + 1)}:${d.line} ${d.message}`
        ),
      ).toEqual([
        'Data/Includes/Weapons.xml:13 WeaponTemplate "AthenaSplash" is also defined in Data/Includes/Allied Units/AthenaCannon.xml:62 (stream static)',
      ]);
      expect(ordered(ws.linked!, dir)).toEqual(ordered(base.linked!, dir));
      expect(exported(ws)).toBe(exported(base));
    });
  }
});
