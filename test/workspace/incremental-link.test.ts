// The incremental link's oracle: random, seeded edit sequences (value edits, id renames, duplicates
// appearing and vanishing, files and includes added and removed, XML errors introduced and fixed) applied
// to the sample mod and to a small generated mod; after every step the workspace's refresh must equal a
// fresh build of the same folder exactly (every field of the linked index, in its orders).
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateCorpus } from "../../scripts/gen-corpus/generate.ts";
import type { LinkedIndex } from "../../src/index/linked.ts";
import { SnapshotStore } from "../../src/store/snapshot-store.ts";
import { IndexService } from "../../src/workspace/service.ts";
import { saveSnapshot, schemaKeyOf, StoreSnapshotPort, warmStart } from "../../src/workspace/snapshots.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { linkedDifference } from "../index/linked-equality.ts";
import { prng } from "../prng.ts";
import { config } from "./fresh-build.ts";
import { tempDirs } from "../temp-dirs.ts";
import { type Edit, ModEditor } from "./edit-sequences.ts";
import { copySample } from "./sample-copy.ts";

const TMP = tempDirs();

async function freshBuild(dir: string, home: string): Promise<LinkedIndex> {
  const ws = new Workspace(config(dir, home));
  await ws.build();
  ws.close();
  return ws.linked!;
}

/** How a sequence went: the first step that differed from a fresh build (null: none), and how each step linked. */
interface Outcome {
  readonly mismatch: string | null;
  /** Steps whose link was patched from the one before. */
  readonly patched: number;
  /** Patched steps whose index has another number of assets than the step before (the numbering moved). */
  readonly renumbered: number;
  /** Patched steps whose include edges moved (an include's place changed, the include graph did not). */
  readonly moved: number;
  /** Why the other steps' links were full ones, with how often. */
  readonly full: Readonly<Record<string, number>>;
}

/**
 * Runs `steps` steps of 1–3 random edits on the mod in `dir`, refreshing after each step (by stamps, or
 * by the edited paths as the watcher names them), and reports the first step whose refreshed index
 * differs from a fresh build, with the edits that led there.
 */
async function editSequence(
  dir: string,
  home: string,
  seed: number,
  steps: number,
  ws?: Workspace,
): Promise<Outcome> {
  const random = prng(seed);
  const editor = new ModEditor(dir, random);
  if (!ws) {
    ws = new Workspace(config(dir, home));
    await ws.build();
  }
  const log: string[] = [];
  let patched = 0;
  let renumbered = 0;
  let moved = 0;
  const full: Record<string, number> = {};
  const places = () => ws!.linked!.includes.map((e) => `${e.from}:${e.line}:${e.column}`).join("\n");
  try {
    for (let step = 1; step <= steps; step++) {
      const edits: Edit[] = [];
      const roll = random();
      const n = roll < 0.6 ? 1 : roll < 0.85 ? 2 : 3;
      for (let i = 0; i < n; i++) edits.push(editor.edit());
      const byPaths = random() < 0.4;
      log.push(`step ${step} (${byPaths ? "refresh(paths)" : "refresh()"}): ${edits.map((e) => e.what).join("; ")}`);
      const assetsBefore = ws.linked!.assets.length;
      const placesBefore = places();
      const r = await (byPaths ? ws.refresh(edits.flatMap((e) => e.paths)) : ws.refresh());
      if (r.changed.length || r.deleted.length) {
        const why = ws.core.lastLinkFullBecause;
        if (why === null) {
          patched++;
          if (ws.linked!.assets.length !== assetsBefore) renumbered++;
          if (places() !== placesBefore) moved++;
        } else full[why] = (full[why] ?? 0) + 1;
      }
      const diff = linkedDifference(ws.linked!, await freshBuild(dir, home));
      if (diff) {
        return {
          mismatch: `seed ${seed}, ${log.join("\n")}\n→ differs from a fresh build at ${diff}`,
          patched,
          renumbered,
          moved,
          full,
        };
      }
    }
    return { mismatch: null, patched, renumbered, moved, full };
  } finally {
    ws.close();
  }
}

describe("incremental link: a refreshed index equals a fresh build after every step", () => {
  test("the comparison sees a difference (a value edited without a refresh)", async () => {
    const { dir, home } = copySample(TMP, "ra3-incr-link-");
    const before = await freshBuild(dir, home);
    expect(linkedDifference(before, await freshBuild(dir, home))).toBeNull();
    const editor = new ModEditor(dir, prng(3));
    let e: Edit;
    do e = editor.edit(); while (!e.what.startsWith("value") && !e.what.startsWith("rename"));
    expect(linkedDifference(before, await freshBuild(dir, home))).not.toBeNull();
  });

  for (const seed of [1, 3, 5, 6, 7, 10]) {
    test(`the sample mod, seed ${seed}`, async () => {
      const { dir, home } = copySample(TMP, "ra3-incr-link-");
      const outcome = await editSequence(dir, home, seed, 20);
      expect(outcome.mismatch).toBeNull();
      // The sequence exercises the patched link, not only full ones: with assets gained or lost, and with
      // includes moved (an asset added or removed above them, lines inserted) while the include graph stays.
      expect(outcome.patched).toBeGreaterThanOrEqual(3);
      expect(outcome.renumbered).toBeGreaterThanOrEqual(2);
      expect(outcome.moved).toBeGreaterThanOrEqual(1);
    }, 30_000);
  }

  for (const seed of [8, 9]) {
    test(`the sample mod after a warm start that published the stored index, seed ${seed}`, async () => {
      const { dir, home } = copySample(TMP, "ra3-incr-link-warm-");
      const first = new Workspace(config(dir, home));
      await first.build();
      const store = new SnapshotStore(home, dir);
      expect(saveSnapshot(first, store, schemaKeyOf(first.schema)).saved).toBe(true);
      first.close();
      const ws = new Workspace(config(dir, home));
      const warm = await warmStart(ws, store, schemaKeyOf(ws.schema));
      expect([warm.warm, ws.core.hasLinkState]).toEqual([true, false]);
      // The stored index was published as it was; the background link gives the core its state.
      expect(await ws.prepareIncrementalLink()).toBe(true);
      expect(await ws.prepareIncrementalLink()).toBe(false);
      const outcome = await editSequence(dir, home, seed, 12, ws);
      expect(outcome.mismatch).toBeNull();
      expect(outcome.full["no earlier link"]).toBeUndefined();
      expect(outcome.patched).toBeGreaterThanOrEqual(3);
      expect(outcome.renumbered).toBeGreaterThanOrEqual(2);
    }, 30_000);
  }

  test("a warm-started service links in the background once idle, so that its first edit patches", async () => {
    const { dir, home } = copySample(TMP, "ra3-incr-link-service-");
    const start = async () => {
      const service = new IndexService(config(dir, home), {
        snapshots: (ws) => new StoreSnapshotPort(home, dir, schemaKeyOf(ws.schema)),
        idleLinkMs: 0,
      });
      await service.start();
      return service;
    };
    const cold = await start();
    await cold.dispose(); // saves the snapshot
    const service = await start();
    expect(service.ws.core.hasLinkState).toBe(false); // the stored index, published as it was
    for (let i = 0; i < 200 && !service.linkPrepared; i++) await new Promise((r) => setTimeout(r, 5));
    expect(await service.linkPrepared).toBe(true);
    const weapons = join(dir, "Data", "Includes", "Weapons.xml");
    writeFileSync(weapons, readFileSync(weapons, "utf8").replace('id="AthenaSplash"', 'id="AfterWarm"'));
    await service.strict(10_000);
    expect([service.linked!.findAssets("AfterWarm").length, service.ws.core.lastLinkFullBecause]).toEqual([1, null]);
    expect(linkedDifference(service.linked!, await freshBuild(dir, home))).toBeNull();
    await service.dispose();
  });

  test("a generated mod (scale 0.003), seed 4", async () => {
    const base = TMP.make("ra3-incr-link-gen-");
    const dir = join(base, "Generated Mod");
    generateCorpus({ out: dir, scale: 0.003, seed: 4, artMb: 0.02 });
    const outcome = await editSequence(dir, join(base, "home"), 4, 10);
    expect(outcome.mismatch).toBeNull();
    expect(outcome.patched).toBeGreaterThanOrEqual(3);
    expect(outcome.renumbered).toBeGreaterThanOrEqual(2);
  }, 30_000);
});
