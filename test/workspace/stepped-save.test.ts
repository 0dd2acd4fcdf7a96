/**
 * Issue 16 item 7: a server's snapshot save in steps (the records taken, the linked section's folder
 * facts asked and hashed a few hundred folders at a time, the state key hashed a thousand files at a
 * time, each a step of its own) stores exactly what a save in one block stores, and leaves the linked
 * section out when the index changed between its steps. The encoder's long loops (the linked section's
 * vocabularies, the string table) cut into steps give what the loops in one block give.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ByteWriter } from "../../src/store/bytes.ts";
import { writeStringTableSteps } from "../../src/store/codec.ts";
import { internSiteVocabularySteps, internVocabularySteps, SITE_VOCABULARY } from "../../src/store/link-codec.ts";
import { StringTable } from "../../src/store/record-codec.ts";
import type { ReferenceSite } from "../../src/index/linked.ts";
import { runSteps } from "../../src/steps.ts";
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

/** Runs `steps` to its end and returns how many times it yielded. */
function yieldsOf(steps: Generator<void, void, void>): number {
  let n = 0;
  while (!steps.next().done) n++;
  return n;
}

describe("the encoder's long loops in steps", () => {
  test("the vocabulary interned in steps (down to one item a step) is the table of every field of every item in order", () => {
    // Values repeating as a sorted list's do, numbers and absent fields among them, a lone surrogate (interned as U+FFFD).
    const items = Array.from({ length: 1000 }, (_, i) => ({
      kind: i % 7 === 0 ? "Inherits" : "Reference",
      element: `E${Math.floor(i / 3) % 50}`,
      state: i % 11 === 0 ? undefined : `S${i % 4}`,
      via: i % 13 === 0 ? 5 : i === 500 ? "bad\ud800" : `V${Math.floor(i / 100)}`,
    }));
    const fields = ["kind", "element", "state", "via"] as const;
    // The loop in one block, without the skip of a repeated value: every string field, item by item.
    const whole = new StringTable();
    whole.intern("before"); // a table that holds strings already (the assets' vocabulary comes first)
    for (const item of items) for (const f of fields) if (typeof item[f] === "string") whole.intern(item[f] as string);
    expect(whole.strings.length).toBe(1 + 2 + 50 + 4 + 10 + 1);
    for (const perStep of [1, 2, 3, 7, 999, 1000, 8192]) {
      const table = new StringTable();
      table.intern("before");
      expect([perStep, yieldsOf(internVocabularySteps(table, items, fields, perStep))])
        .toEqual([perStep, Math.floor(items.length / perStep)]);
      expect([perStep, table.strings]).toEqual([perStep, whole.strings]);
    }
  });

  test("the sites' vocabulary written out field by field: the generic loop's table, order and yields", () => {
    const sites = Array.from({ length: 700 }, (_, i) => ({
      kind: i % 5 === 0 ? "inheritFrom" : "attribute",
      status: i % 9 === 0 ? "not_found" : "resolved",
      state: `S${Math.floor(i / 40) % 3}`,
      element: `E${Math.floor(i / 3) % 60}`,
      parent: i % 4 === 0 ? null : `P${i % 6}`,
      attribute: i % 7 === 0 ? null : `A${Math.floor(i / 2) % 9}`,
      refType: i % 3 === 0 ? null : `T${i % 5}`,
      selfType: i === 301 ? 7 : i % 8 === 0 ? `T${i % 5}` : null,
      via: i % 50 === 0 ? `Fragments/F${i}.xml` : null,
    })) as unknown as ReferenceSite[];
    for (const perStep of [1, 3, 699, 700, 8192]) {
      const generic = new StringTable();
      generic.intern("before");
      const own = new StringTable();
      own.intern("before");
      const genericYields = yieldsOf(internVocabularySteps(generic, sites, SITE_VOCABULARY, perStep));
      expect([perStep, yieldsOf(internSiteVocabularySteps(own, sites, perStep))]).toEqual([perStep, genericYields]);
      expect([perStep, own.strings]).toEqual([perStep, generic.strings]);
    }
    const table = new StringTable();
    runSteps(internSiteVocabularySteps(table, sites));
    expect(table.strings.length).toBe(2 + 2 + 3 + 60 + 6 + 9 + 5 + 14);
  });

  test("the string table in steps (down to one string a step, into a writer of small pieces) writes the bytes of one block", () => {
    const strings = Array.from(
      { length: 300 },
      (_, i) => i % 17 === 0 ? "" : i % 29 === 0 ? `Données\${i}✓` : i % 31 === 0 ? `x😀${i}` : `HugeWeapon${i}`,
    );
    // The table written in one block: the count, each string's UTF-16 length, the blob's byte count, the blob.
    const once = new ByteWriter(16);
    once.uint(strings.length);
    for (const s of strings) once.uint(s.length);
    const blob = new TextEncoder().encode(strings.join(""));
    once.u32(blob.length);
    once.bytes(blob);
    const expected = once.result().slice();
    for (const perStep of [1, 2, 5, 299, 300, 16384]) {
      const w = new ByteWriter(16);
      expect([perStep, yieldsOf(writeStringTableSteps(w, strings, perStep))])
        .toEqual([perStep, 2 * Math.floor(strings.length / perStep)]);
      expect([perStep, w.result()]).toEqual([perStep, expected]);
      // Into a sink taking pieces of 64 bytes (the file of a server's save): the blob's count patched in place.
      const pieces: Uint8Array[] = [];
      let patched = 0;
      const file = {
        append: (b: Uint8Array) => void pieces.push(b.slice()),
        writeAt: (at: number, b: Uint8Array) => {
          patched++;
          let base = 0;
          for (const p of pieces) {
            if (at >= base && at < base + p.length) p.set(b, at - base);
            base += p.length;
          }
        },
      };
      const sunk = new ByteWriter(64, file);
      yieldsOf(writeStringTableSteps(sunk, strings, perStep));
      sunk.flush();
      expect(patched).toBe(1);
      expect([perStep, Buffer.concat(pieces)]).toEqual([perStep, Buffer.from(expected)]);
    }
  });
});
