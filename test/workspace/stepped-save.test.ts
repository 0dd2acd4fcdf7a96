/**
 * Issue 16 item 7: a server's snapshot save in steps (the records taken, the linked section's folder
 * facts asked and hashed a few hundred folders at a time, the state key hashed a thousand files at a
 * time, each a step of its own) stores exactly what a save in one block stores, and leaves the linked
 * section out when the index changed between its steps.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SnapshotStore } from "../../src/store/snapshot-store.ts";
import { linkFactsNow, linkFactsNowSteps } from "../../src/workspace/link-facts.ts";
import { saveSnapshot, schemaKeyOf, StoreSnapshotPort } from "../../src/workspace/snapshots.ts";
import { recordsOf, SAMPLE, snapshotOf } from "../store/records.ts";
import { copySample } from "./sample-copy.ts";
import { fresh } from "./fresh-build.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

describe("a server's save in steps", () => {
  test("the link facts in steps (down to one folder a step) equal the whole questions and the digest of all answers at once", async () => {
    const { dir, home } = copySample(TMP, "ra3-stepped-save-");
    const ws = await fresh(dir, home);
    const config = ws.config;
    const lookups = config.resolver.lookups();
    // Enough folders asked for several steps of one.
    expect(lookups.length).toBeGreaterThan(5);
    const whole = {
      folders: lookups.map(([d, names]) => JSON.stringify([d, ...names])),
      listing: createHash("sha1").update(config.resolver.lookupAnswers(lookups)).digest("hex"),
    };
    for (const perStep of [1, 2, 3, 256]) {
      const steps = linkFactsNowSteps(config, "scan-facts", false, perStep);
      let n = 0;
      let r = steps.next();
      for (; !r.done; r = steps.next()) n++;
      expect(n).toBe(Math.ceil(lookups.length / perStep));
      expect(r.value && { folders: r.value.folders, listing: r.value.listing }).toEqual(whole);
      expect(r.value?.scan).toBe("scan-facts");
      expect(r.value).toEqual(linkFactsNow(config, "scan-facts", false));
    }
    expect(linkFactsNowSteps(config, "x", true).next()).toEqual({ done: true, value: null });
  });

  test("the server's save (a pause after every step) writes the bytes a save in one block writes", async () => {
    const { dir, home } = copySample(TMP, "ra3-stepped-save-");
    const ws = await fresh(dir, home);
    const key = schemaKeyOf(ws.schema);
    const once = new SnapshotStore(join(home, "once"), dir);
    expect(saveSnapshot(ws, once, key).saved).toBe(true);
    const port = new StoreSnapshotPort(join(home, "stepped"), dir, key, () => {}, 60_000);
    let pauses = 0;
    const save = port.store.saveInSteps.bind(port.store);
    port.store.saveInSteps = (s, pause) => {
      // The linked section was taken, in steps, with the records.
      expect(s.linked?.facts.folders.length).toBeGreaterThan(0);
      return save(s, () => (pauses++, pause()));
    };
    port.changed(ws, { promptly: true });
    await port.flush();
    port.dispose();
    // At least the linked section's first three parts (vocabularies, reach) apart.
    expect(pauses).toBeGreaterThanOrEqual(3);
    expect(readFileSync(port.store.path)).toEqual(readFileSync(once.path));
  });

  test("the linked section is left out when the index changes between the steps that take it", async () => {
    const { dir, home } = copySample(TMP, "ra3-stepped-save-");
    const ws = await fresh(dir, home);
    const whole = ws.storedLink();
    expect(whole).not.toBeNull();
    // Nothing changes between the steps: the one-block answer.
    const steps = ws.storedLinkSteps();
    let r = steps.next();
    for (; !r.done; r = steps.next());
    expect(r.value).toEqual(whole);
    // A change reported between two steps (a watcher's event: the index is stale now).
    const changed = ws.storedLinkSteps();
    expect(changed.next().done).toBe(false);
    ws.event("files_changed");
    expect(changed.next()).toEqual({ done: true, value: null });
    expect(ws.storedLink()).toBeNull();
  });

  test("the state key in steps of a thousand files sees a stamp change in each step, the last one too", async () => {
    const records = recordsOf(SAMPLE, null);
    const many = Array.from({ length: 2500 }, (_, i) => ({
      ...records[i % records.length],
      path: `${SAMPLE}/f${i}.xml`,
    }));
    const store = new SnapshotStore(join(TMP.make("ra3-stepped-key-"), "home"), SAMPLE);
    let pauses = 0;
    const pause = async () => {
      pauses++;
    };
    const base = snapshotOf(SAMPLE, many);
    expect((await store.saveInSteps(base, pause)).saved).toBe(true);
    const keyPauses = Math.floor(2500 / 1024);
    // Two key steps, then the encoder's (a pause after every 256 files and when the checksum is read back).
    expect(pauses).toBe(keyPauses + Math.floor(2500 / 256));
    const again = await store.saveInSteps(base, pause);
    expect(again.saved ? "saved" : again.reason).toBe("unchanged");
    for (const i of [10, 1500, 2499]) {
      const files = many.slice();
      files[i] = { ...files[i], stamp: { size: 1, mtimeMs: 2 } };
      const r = await store.saveInSteps(snapshotOf(SAMPLE, files), pause);
      expect([i, r.saved]).toEqual([i, true]);
      // Back to the stored state of `many` for the next file.
      expect((await store.saveInSteps(base, pause)).saved).toBe(true);
    }
  });
});

describe("the encoder's steps", () => {
  test("big records end a step after 256 KB however few files they are, and the bytes are a save in one block's", async () => {
    const records = recordsOf(SAMPLE, null);
    const rich = records.reduce((a, b) => (b.record.refs.length > a.record.refs.length ? b : a));
    expect(rich.record.refs.length).toBeGreaterThan(0);
    // 200 files whose records hold 5,000 references each (a map's record with the RA3 schema is of that kind).
    const big = {
      ...rich.record,
      refs: Array.from({ length: 5000 }, (_, i) => rich.record.refs[i % rich.record.refs.length]),
    };
    const files = Array.from({ length: 200 }, (_, i) => ({ ...rich, path: `${SAMPLE}/big${i}.xml`, record: big }));
    const snapshot = snapshotOf(SAMPLE, files);
    const home = TMP.make("ra3-stepped-encoder-");
    const once = new SnapshotStore(join(home, "once"), SAMPLE);
    const saved = once.save(snapshot);
    expect(saved.saved).toBe(true);
    const size = saved.saved ? saved.size : 0;
    let pauses = 0;
    const stepped = new SnapshotStore(join(home, "stepped"), SAMPLE);
    expect(
      (await stepped.saveInSteps(snapshot, async () => {
        pauses++;
      })).saved,
    ).toBe(true);
    // Fewer than 256 files: a step ends once 256 KB of records were written (a record is far less).
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(size / (256 * 1024 + size / files.length)) - 1);
    expect(pauses).toBeGreaterThan(20);
    expect(readFileSync(stepped.path)).toEqual(readFileSync(once.path));
  });
});
