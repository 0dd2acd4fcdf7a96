// The incremental link's oracle: random, seeded edit sequences (value edits, id renames, duplicates
// appearing and vanishing, files and includes added and removed, XML errors introduced and fixed) applied
// to the sample mod and to a small generated mod; after every step the workspace's refresh must equal a
// fresh build of the same folder exactly (every field of the linked index, in its orders).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { generateCorpus } from "../../scripts/gen-corpus/generate.ts";
import type { LinkedIndex } from "../../src/index/linked.ts";
import { resolveConfig } from "../../src/workspace/config.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { linkedDifference } from "../index/linked-equality.ts";
import { prng } from "../prng.ts";
import { tempDirs } from "../temp-dirs.ts";
import { type Edit, ModEditor } from "./edit-sequences.ts";
import { copySample } from "./sample-copy.ts";

const TMP = tempDirs();

function config(dir: string, home: string) {
  const cfg = resolveConfig({ project: dir, sdk: "", schema: null, home });
  if ("envError" in cfg) throw new Error(cfg.envError);
  return cfg;
}

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
  /** Why the other steps' links were full ones, with how often. */
  readonly full: Readonly<Record<string, number>>;
}

/**
 * Runs `steps` steps of 1–3 random edits on the mod in `dir`, refreshing after each step (by stamps, or
 * by the edited paths as the watcher names them), and reports the first step whose refreshed index
 * differs from a fresh build, with the edits that led there.
 */
async function editSequence(dir: string, home: string, seed: number, steps: number): Promise<Outcome> {
  const random = prng(seed);
  const editor = new ModEditor(dir, random);
  const ws = new Workspace(config(dir, home));
  await ws.build();
  const log: string[] = [];
  let patched = 0;
  const full: Record<string, number> = {};
  try {
    for (let step = 1; step <= steps; step++) {
      const edits: Edit[] = [];
      const roll = random();
      const n = roll < 0.6 ? 1 : roll < 0.85 ? 2 : 3;
      for (let i = 0; i < n; i++) edits.push(editor.edit());
      const byPaths = random() < 0.4;
      log.push(`step ${step} (${byPaths ? "refresh(paths)" : "refresh()"}): ${edits.map((e) => e.what).join("; ")}`);
      const r = await (byPaths ? ws.refresh(edits.flatMap((e) => e.paths)) : ws.refresh());
      if (r.changed.length || r.deleted.length) {
        const why = ws.core.lastLinkFullBecause;
        if (why === null) patched++;
        else full[why] = (full[why] ?? 0) + 1;
      }
      const diff = linkedDifference(ws.linked!, await freshBuild(dir, home));
      if (diff) {
        return { mismatch: `seed ${seed}, ${log.join("\n")}\n→ differs from a fresh build at ${diff}`, patched, full };
      }
    }
    return { mismatch: null, patched, full };
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

  for (const seed of [1, 2, 3, 5, 6, 7]) {
    test(`the sample mod, seed ${seed}`, async () => {
      const { dir, home } = copySample(TMP, "ra3-incr-link-");
      const outcome = await editSequence(dir, home, seed, 16);
      expect(outcome.mismatch).toBeNull();
      // The sequence exercises the patched link, not only full ones.
      expect(outcome.patched).toBeGreaterThanOrEqual(3);
    }, 30_000);
  }

  test("a generated mod (scale 0.003), seed 4", async () => {
    const base = TMP.make("ra3-incr-link-gen-");
    const dir = join(base, "Generated Mod");
    generateCorpus({ out: dir, scale: 0.003, seed: 4, artMb: 0.02 });
    const outcome = await editSequence(dir, join(base, "home"), 4, 10);
    expect(outcome.mismatch).toBeNull();
    expect(outcome.patched).toBeGreaterThanOrEqual(3);
  }, 30_000);
});
