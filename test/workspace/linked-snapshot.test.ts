/**
 * Issue 16 item 1: a warm start does not re-walk or re-link. The snapshot stores the last link (the
 * include walk, the index's parts) and the folder-listing answers it depended on; a warm start with
 * nothing changed publishes it as stored, one with only values changed reuses the walk, and anything
 * that can change the walk (a file appearing where an include looks, outside the scanned roots too)
 * walks again. Every case ends equal to a fresh build, in order. Snapshots of the previous format and
 * linked sections that do not hold together are refused, never served.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { LinkedIndex, ReferenceSite } from "../../src/index/linked.ts";
import { findReferences } from "../../src/query/references.ts";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { summarize } from "../../src/query/summary.ts";
import { decodeSnapshot, encodeSnapshot, snapshotChecksum } from "../../src/store/codec.ts";
import { SnapshotStore } from "../../src/store/snapshot-store.ts";
import {
  inspectSnapshot,
  saveSnapshot,
  schemaKeyOf,
  StoreSnapshotPort,
  warmStart,
} from "../../src/workspace/snapshots.ts";
import { scanProjectFiles } from "../../src/project/scan.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { ByteReader } from "../../src/store/bytes.ts";
import { TOOL_VERSION } from "../../src/version.ts";
import { copySample } from "./sample-copy.ts";
import { config, exported, fresh, ordered } from "./fresh-build.ts";
import { tempDirs } from "../temp-dirs.ts";
import { corruptSites, linkedSection } from "./damaged-snapshot.ts";

const TMP = tempDirs();

/** A workspace counting include walks (each reads the entry points) and links (each asks for the environment). */
function counted(dir: string, home: string): { ws: Workspace; walks: () => number; links: () => number } {
  const ws = new Workspace(config(dir, home));
  const inputs = ws.ports.inputs;
  let walks = 0;
  let links = 0;
  const entries = Object.getOwnPropertyDescriptor(inputs, "entries")!.get!;
  Object.defineProperty(inputs, "entries", {
    get() {
      walks++;
      return entries.call(inputs);
    },
  });
  const environment = inputs.environment.bind(inputs);
  (inputs as { environment: typeof inputs.environment }).environment = () => {
    links++;
    return environment();
  };
  return { ws, walks: () => walks, links: () => links };
}

/** A fresh build of the sample saved as a snapshot. */
async function saved(): Promise<{ dir: string; home: string }> {
  const { dir, home } = copySample(TMP, "ra3-linked-");
  const first = await fresh(dir, home);
  expect(saveSnapshot(first, new SnapshotStore(home, dir), schemaKeyOf(first.schema)).saved).toBe(true);
  return { dir, home };
}

describe("a warm start from the stored link", () => {
  test("nothing changed: the stored index is published as it is (no walk, no link), equal to a fresh build", async () => {
    const { dir, home } = await saved();
    const loaded = new SnapshotStore(home, dir).load({ projectDir: dir, toolVersion: TOOL_VERSION });
    if (!loaded.ok) throw new Error(loaded.message);
    expect(loaded.snapshot.linked?.parts.assets.length).toBe(28);

    const { ws, walks, links } = counted(dir, home);
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    expect([warm.linked, walks(), links(), warm.update.changed, ws.lifecycle.state]).toEqual([
      "index",
      0,
      0,
      [],
      "ready",
    ]);
    const base = await fresh(dir, home);
    expect(ordered(ws.linked!, dir)).toEqual(ordered(base.linked!, dir));
    expect(exported(ws)).toBe(exported(base));
    // Its records are installed: an edit after it re-links from them.
    expect([...ws.core.values()].length).toBe([...base.core.values()].length);
  });

  test("a value edit: the stored walk is reused, the records re-linked, equal to a fresh build", async () => {
    const { dir, home } = await saved();
    const weapons = join(dir, "Data", "Includes", "Weapons.xml");
    writeFileSync(weapons, readFileSync(weapons, "utf8").replace('id="AthenaSplash"', 'id="AthenaSplashWarm"'));
    const { ws, walks, links } = counted(dir, home);
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    expect([warm.linked, walks(), links()]).toEqual(["walk", 0, 1]);
    expect(ws.linked!.findAssets("AthenaSplashWarm").length).toBe(1);
    const base = await fresh(dir, home);
    expect(ordered(ws.linked!, dir)).toEqual(ordered(base.linked!, dir));
    expect(exported(ws)).toBe(exported(base));
  });

  test("an edit of an include: walked again, equal to a fresh build", async () => {
    const { dir, home } = await saved();
    const art = join(dir, "Data", "Includes", "Art.xml");
    writeFileSync(
      art,
      readFileSync(art, "utf8").replace("</Includes>", '\t<Include type="all" source="Nowhere.xml" />\n\t</Includes>'),
    );
    const { ws, walks } = counted(dir, home);
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    expect(walks()).toBeGreaterThan(0);
    expect(ws.linked!.diagnostics.some((d) => d.message === 'include "Nowhere.xml" was not found')).toBe(true);
    expect(ordered(ws.linked!, dir)).toEqual(ordered((await fresh(dir, home)).linked!, dir));
  });

  test("a file appears outside the project where an include looks (the mod's parent): walked again", async () => {
    const { dir, home } = await saved();
    // DATA:global.xml (a reference include of Data/Mod.xml) is searched in the mod's parent folder too.
    writeFileSync(
      join(dir, "..", "global.xml"),
      '<?xml version="1.0"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n\t<WeaponTemplate id="FromParent" />\n</AssetDeclaration>\n',
    );
    const { ws, walks } = counted(dir, home);
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    expect([warm.linked, warm.update.changed, walks() > 0]).toEqual(["stale", [], true]);
    const base = await fresh(dir, home);
    const edge = (l: LinkedIndex) => l.includes.find((e) => e.source === "DATA:global.xml");
    expect(edge(base.linked!)?.to).toBe(join(dir, "..", "global.xml"));
    expect(edge(ws.linked!)?.to).toBe(join(dir, "..", "global.xml"));
    expect(ordered(ws.linked!, dir)).toEqual(ordered(base.linked!, dir));
    // The stale section is replaced by the next save.
    expect(saveSnapshot(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema)).saved).toBe(true);
  });

  test("a link the scan does not follow appears (only the scan's report changes): linked again, the warning shown", async () => {
    const { dir, home } = await saved();
    symlinkSync(join(dir, "..", "nowhere.xml"), join(dir, "Data", "Dangling.xml"));
    const { ws, links } = counted(dir, home);
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    expect([warm.linked, warm.update.changed, links()]).toEqual(["stale", [], 1]);
    expect(ws.linked!.diagnostics.filter((d) => d.code === "link-outside-roots").length).toBe(1);
    expect(ordered(ws.linked!, dir)).toEqual(ordered((await fresh(dir, home)).linked!, dir));
  });

  test("a file appears in the mod's parent where nothing looks: the stored index still holds", async () => {
    const { dir, home } = await saved();
    writeFileSync(join(dir, "..", "notes.txt"), "not a mod file\n");
    const { ws, walks } = counted(dir, home);
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    expect([warm.linked, walks()]).toEqual(["index", 0]);
  });
});

describe("ra3 status", () => {
  test("reads the stored link when nothing changed (no walk, no link), links the records when a file did", async () => {
    const { dir, home } = await saved();
    const inspect = () => {
      const { ws, walks, links } = counted(dir, home);
      const scanned = scanProjectFiles(dir, { admitLink: (p) => ws.ports.confinement.admits(p) });
      const r = inspectSnapshot(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema), scanned);
      return { ws, r, walks: walks(), links: links() };
    };
    const same = inspect();
    expect([same.r.changed, same.walks, same.links]).toEqual([[], 0, 0]);
    const base = await fresh(dir, home);
    expect(ordered(same.ws.linked!, dir)).toEqual(ordered(base.linked!, dir));
    const weapons = join(dir, "Data", "Includes", "Weapons.xml");
    writeFileSync(weapons, readFileSync(weapons, "utf8").replace('id="AthenaSplash"', 'id="AthenaSplashWarm"'));
    const edited = inspect();
    expect([edited.r.changed.length, edited.walks, edited.links, edited.ws.lifecycle.state]).toEqual([
      1,
      1,
      1,
      "stale",
    ]);
  });
});

describe("snapshots the warm start must not serve", () => {
  test("a snapshot of the previous format (version 8) is refused with its reason, and the index rebuilt", async () => {
    const { dir, home } = await saved();
    const store = new SnapshotStore(home, dir);
    const bytes = readFileSync(store.path);
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(8, 8, true);
    writeFileSync(store.path, bytes);
    const ws = new Workspace(config(dir, home));
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    expect(warm).toEqual({
      warm: false,
      reason: "the snapshot has format version 8; this ra3 reads version 9; rebuilding the index",
      quiet: false,
    });
    expect(ws.linked).toBeNull();
  });

  test("a linked section pointing outside its lists is refused: the records are linked instead", async () => {
    const { dir, home } = await saved();
    const store = new SnapshotStore(home, dir);
    const loaded = store.load({ projectDir: dir, toolVersion: TOOL_VERSION });
    if (!loaded.ok || !loaded.snapshot.linked) throw new Error("no linked snapshot");
    const s = loaded.snapshot;
    const link = s.linked!;
    const byId = new Map([...link.parts.ranking.byId].map(([k, list], i) => [k, i === 0 ? [...list, 99999] : list]));
    const ranking = { ...link.parts.ranking, byId };
    writeFileSync(store.path, encodeSnapshot({ ...s, linked: { ...link, parts: { ...link.parts, ranking } } }));
    const decoded = decodeSnapshot(readFileSync(store.path), { projectDir: dir, toolVersion: TOOL_VERSION });
    expect(decoded.ok && [decoded.snapshot.linked, decoded.snapshot.linkedProblem]).toEqual([
      undefined,
      "an asset list names 99999 of 28",
    ]);

    const { ws, walks } = counted(dir, home);
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    expect([warm.linked, walks() > 0]).toEqual(["refused", true]);
    expect(ordered(ws.linked!, dir)).toEqual(ordered((await fresh(dir, home)).linked!, dir));
  });

  test("a linked section of garbage bytes (checksum made to match) is refused: the records are linked instead", async () => {
    const { dir, home } = await saved();
    const store = new SnapshotStore(home, dir);
    const bytes = new Uint8Array(readFileSync(store.path));
    const { start, length } = linkedSection(bytes);
    expect(length).toBeGreaterThan(1000);
    bytes.fill(0xff, start + 10, start + length - 10);
    new DataView(bytes.buffer).setUint32(20, snapshotChecksum(bytes.subarray(24)), true);
    writeFileSync(store.path, bytes);
    const decoded = decodeSnapshot(bytes, { projectDir: dir, toolVersion: TOOL_VERSION });
    expect(decoded.ok && decoded.snapshot.files.length).toBe(16);
    expect(decoded.ok && typeof decoded.snapshot.linkedProblem).toBe("string");

    const ws = new Workspace(config(dir, home));
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    expect(warm.linked).toBe("refused");
    expect(ordered(ws.linked!, dir)).toEqual(ordered((await fresh(dir, home)).linked!, dir));
  });
});

/**
 * Where each file's record is in a snapshot (format 5: after the linked section, each file's path, stamp
 * and record length, then the record), by path.
 */
function recordRanges(bytes: Uint8Array, table: (i: number) => string): Map<string, { start: number; end: number }> {
  const { start, length } = linkedSection(bytes);
  const r = new ByteReader(bytes, start + length);
  const out = new Map<string, { start: number; end: number }>();
  const n = r.uint();
  for (let i = 0; i < n; i++) {
    const path = table(r.uint());
    if (r.uint() === 1) (r.float(), r.float());
    const len = r.u32();
    out.set(path, { start: r.pos, end: r.pos + len });
    r.bytes(len);
  }
  return out;
}

/** The snapshot at `store` with the record of `file` (relative) overwritten by bytes that do not decode, its checksum fixed. */
function corruptRecord(store: SnapshotStore, dir: string, file: string): void {
  const loaded = store.load({ projectDir: dir, toolVersion: TOOL_VERSION });
  if (!loaded.ok) throw new Error(loaded.message);
  const paths = loaded.snapshot.files.map((f) => f.path);
  const bytes = new Uint8Array(readFileSync(store.path));
  // The file entries' path indexes are the table's; the test maps them back through the decoded order.
  let k = 0;
  const ranges = recordRanges(bytes, () => paths[k++]);
  const range = ranges.get(join(dir, file));
  if (!range) throw new Error(`no record of ${file}`);
  expect(range.end - range.start).toBeGreaterThan(20);
  // A varint longer than any number: the record cannot decode, and the files after it are intact.
  bytes.fill(0xff, range.start, range.end - 1);
  bytes[range.end - 1] = 0x01;
  new DataView(bytes.buffer).setUint32(20, snapshotChecksum(bytes.subarray(24)), true);
  writeFileSync(store.path, bytes);
}

describe("records decoded only when read (format 5)", () => {
  test("nothing changed: no record is decoded; an export decodes them and equals a fresh build's, byte for byte", async () => {
    const { dir, home } = await saved();
    const ws = new Workspace(config(dir, home));
    const problems: string[] = [];
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.onRecordProblem = (m) => problems.push(m);
    ws.close();
    expect([warm.linked, warm.problem, ws.core.size, ws.core.deferredCount]).toEqual(["index", undefined, 16, 16]);
    const base = await fresh(dir, home);
    expect(ordered(ws.linked!, dir)).toEqual(ordered(base.linked!, dir));
    // The export reads every record: each is decoded from its own bytes.
    expect(exported(ws)).toBe(exported(base));
    expect([ws.core.deferredCount, problems]).toEqual([0, []]);
  });

  test("a file whose record was never decoded is edited after the warm start: equal to a fresh build", async () => {
    const { dir, home } = await saved();
    const ws = new Workspace(config(dir, home));
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    const problems: string[] = [];
    ws.onRecordProblem = (m) => problems.push(m);
    const weapons = join(dir, "Data", "Includes", "Weapons.xml");
    const key = [...ws.core.values()].find((f) => f.path === weapons)!;
    expect(key.path).toBe(weapons);
    expect(ws.core.deferredCount).toBe(16);
    // A value edit (the walk holds) and a new asset id: the file's old record is read to compare its structure.
    writeFileSync(weapons, readFileSync(weapons, "utf8").replace('id="AthenaSplash"', 'id="AthenaSplashTwo"'));
    const update = await ws.refresh();
    ws.close();
    expect([update.changed, problems]).toEqual([[weapons], []]);
    const base = await fresh(dir, home);
    expect(ordered(ws.linked!, dir)).toEqual(ordered(base.linked!, dir));
    expect(exported(ws)).toBe(exported(base));
    expect(ws.linked!.findAssets("AthenaSplashTwo").map((a) => a.file)).toEqual([weapons]);
  });

  test("a save right after a warm start that served the stored index writes nothing; after an edit it writes", async () => {
    const { dir, home } = await saved();
    const store = new SnapshotStore(home, dir);
    const ws = new Workspace(config(dir, home));
    const warm = await warmStart(ws, store, schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    const first = saveSnapshot(ws, store, schemaKeyOf(ws.schema));
    expect([first.saved, !first.saved && first.reason, ws.core.deferredCount]).toEqual([false, "unchanged", 16]);
    const weapons = join(dir, "Data", "Includes", "Weapons.xml");
    writeFileSync(weapons, readFileSync(weapons, "utf8") + "\n");
    await ws.refresh();
    ws.close();
    expect(saveSnapshot(ws, store, schemaKeyOf(ws.schema)).saved).toBe(true);
    const again = decodeSnapshot(readFileSync(store.path), { projectDir: dir, toolVersion: TOOL_VERSION });
    expect(again.ok && again.snapshot.files.find((f) => f.path === weapons)?.stamp?.size).toBe(
      readFileSync(weapons).length,
    );
  });

  test("a record that does not decode, found only when read: refused with its reason, its files read again, never served", async () => {
    const { dir, home } = await saved();
    const store = new SnapshotStore(home, dir);
    corruptRecord(store, dir, "Data/Includes/Weapons.xml");
    // The eager decode (ra3 status) finds it at once.
    const eager = decodeSnapshot(readFileSync(store.path), { projectDir: dir, toolVersion: TOOL_VERSION });
    expect(eager.ok ? "decoded" : eager.message).toStartWith(
      `the snapshot is corrupt: the record of ${join(dir, "Data/Includes/Weapons.xml")} does not decode (`,
    );

    // Nothing changed: the stored index is served (it does not depend on the records), no record read.
    const ws = new Workspace(config(dir, home));
    const warmStore = new SnapshotStore(home, dir);
    const warm = await warmStart(ws, warmStore, schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    const problems: string[] = [];
    ws.onRecordProblem = (m) => {
      warmStore.forgetLoaded();
      problems.push(m);
    };
    expect([warm.linked, warm.problem, ws.core.deferredCount]).toEqual(["index", undefined, 16]);
    const base = await fresh(dir, home);
    expect(ordered(ws.linked!, dir)).toEqual(ordered(base.linked!, dir));
    // An export reads them all: the corrupt one is refused, every stored record read again from its file.
    await ws.decodeDeferred();
    ws.close();
    expect(problems).toEqual([
      `the snapshot is corrupt: the record of ${
        join(dir, "Data/Includes/Weapons.xml")
      } does not decode (a number is longer than 8 bytes); its 16 records were read again from the files`,
    ]);
    expect(ws.core.deferredCount).toBe(0);
    expect(ordered(ws.linked!, dir)).toEqual(ordered(base.linked!, dir));
    expect(exported(ws)).toBe(exported(base));
    // The same state, but the snapshot is rewritten (it was refused), and then reads back whole.
    expect(saveSnapshot(ws, warmStore, schemaKeyOf(ws.schema)).saved).toBe(true);
    expect(decodeSnapshot(readFileSync(store.path), { projectDir: dir, toolVersion: TOOL_VERSION }).ok).toBe(true);
  });

  test("a record that does not decode, found by a save that encodes it: nothing written, the record's reason said", async () => {
    const { dir, home } = await saved();
    const store = new SnapshotStore(home, dir);
    corruptRecord(store, dir, "Data/Includes/Weapons.xml");
    const before = readFileSync(store.path);
    const ws = new Workspace(config(dir, home));
    const warmStore = new SnapshotStore(home, dir);
    const warm = await warmStart(ws, warmStore, schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    expect([warm.linked, ws.core.deferredCount]).toEqual(["index", 16]);
    // The loaded file is forgotten (as after a refusal): the save encodes every record, and meets the bad one.
    warmStore.forgetLoaded();
    expect(saveSnapshot(ws, warmStore, schemaKeyOf(ws.schema))).toEqual({
      saved: false,
      reason: "error",
      message: `the snapshot is corrupt: the record of ${
        join(dir, "Data/Includes/Weapons.xml")
      } does not decode (a number is longer than 8 bytes)`,
    });
    expect(readFileSync(store.path).equals(before)).toBe(true);
    // The server's save (in steps, through the snapshot port) follows the same rule and logs the reason.
    const logs: string[] = [];
    const served = new Workspace(config(dir, home));
    const port = new StoreSnapshotPort(home, dir, schemaKeyOf(served.schema), (l) => logs.push(l), 60_000);
    expect((await port.restore(served)).restored).toBe(true);
    port.store.forgetLoaded();
    port.changed(served);
    await port.flush();
    served.close();
    expect(logs).toEqual([
      `snapshot not saved: the snapshot is corrupt: the record of ${
        join(dir, "Data/Includes/Weapons.xml")
      } does not decode (a number is longer than 8 bytes)`,
    ]);
    expect(readFileSync(store.path).equals(before)).toBe(true);
  });

  test("a record that does not decode, found by a warm start's link (another file changed): refused, equal to a fresh build", async () => {
    const { dir, home } = await saved();
    const store = new SnapshotStore(home, dir);
    corruptRecord(store, dir, "Data/Includes/BaseObjects.xml");
    const weapons = join(dir, "Data", "Includes", "Weapons.xml");
    writeFileSync(weapons, readFileSync(weapons, "utf8") + "\n");
    const { ws, links } = counted(dir, home);
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    expect(warm.problem).toStartWith(
      `the snapshot is corrupt: the record of ${join(dir, "Data/Includes/BaseObjects.xml")} does not decode (`,
    );
    expect([warm.linked, ws.core.deferredCount, links() >= 1]).toEqual(["walk", 0, true]);
    const base = await fresh(dir, home);
    expect(ordered(ws.linked!, dir)).toEqual(ordered(base.linked!, dir));
    expect(exported(ws)).toBe(exported(base));
  });
});

describe("reference sites decoded only when read (format 6)", () => {
  test("nothing changed: the sites stay a byte range; queries and the export read them, equal to a fresh build", async () => {
    const { dir, home } = await saved();
    const store = new SnapshotStore(home, dir);
    const ws = new Workspace(config(dir, home));
    const warm = await warmStart(ws, store, schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    expect([warm.linked, warm.problem, ws.linked!.sitesDeferred, ws.linked!.stats.references]).toEqual([
      "index",
      undefined,
      true,
      23,
    ]);
    // ra3 index's summary and an unchanged save read none.
    summarize(ws.linked!, { dir: null, source: "none", files: 0, loaded: false });
    const unchanged = saveSnapshot(ws, store, schemaKeyOf(ws.schema));
    expect([unchanged.saved, ws.linked!.sitesDeferred]).toEqual([false, true]);
    // Never decoded, then asked: the answers are a fresh build's.
    const base = await fresh(dir, home);
    const refs = (l: LinkedIndex) => findReferences(l, "AthenaCannonBeam", {});
    expect(refs(ws.linked!)).toEqual(refs(base.linked!));
    expect(ws.linked!.sitesDeferred).toBe(false);
    expect(ordered(ws.linked!, dir)).toEqual(ordered(base.linked!, dir));
    expect(exported(ws)).toBe(exported(base));
  });

  test("an export of a warm start whose sites were never read equals a fresh build's, byte for byte", async () => {
    const { dir, home } = await saved();
    const ws = new Workspace(config(dir, home));
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    expect(ws.linked!.sitesDeferred).toBe(true);
    await ws.decodeDeferred();
    expect([ws.linked!.sitesDeferred, ws.core.deferredCount]).toEqual([false, 0]);
    expect(exported(ws)).toBe(exported(await fresh(dir, home)));
  });

  test("a save that writes re-encodes sites it never read: the next warm start equals a fresh build", async () => {
    const { dir, home } = await saved();
    const store = new SnapshotStore(home, dir);
    const ws = new Workspace(config(dir, home));
    const warm = await warmStart(ws, store, schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    store.forgetLoaded(); // as after a refusal: the next save writes
    const before = readFileSync(store.path);
    expect(saveSnapshot(ws, store, schemaKeyOf(ws.schema)).saved).toBe(true);
    expect(readFileSync(store.path).length).toBe(before.length);
    const again = new Workspace(config(dir, home));
    const second = await warmStart(again, new SnapshotStore(home, dir), schemaKeyOf(again.schema));
    if (!second.warm) throw new Error(second.reason);
    again.close();
    expect([second.linked, again.linked!.sitesDeferred]).toEqual(["index", true]);
    const base = await fresh(dir, home);
    expect(ordered(again.linked!, dir)).toEqual(ordered(base.linked!, dir));
    expect(exported(again)).toBe(exported(base));
  });

  test("stored sites that do not decode, found when a query first reads them: refused, linked from the files", async () => {
    const { dir, home } = await saved();
    const store = new SnapshotStore(home, dir);
    corruptSites(store);
    const ws = new Workspace(config(dir, home));
    const warmStore = new SnapshotStore(home, dir);
    const warm = await warmStart(ws, warmStore, schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    // The range is not read by the warm start: the stored index is published.
    expect([warm.linked, warm.problem, ws.linked!.sitesDeferred]).toEqual(["index", undefined, true]);
    const problems: string[] = [];
    ws.onRecordProblem = (m) => {
      warmStore.forgetLoaded();
      problems.push(m);
    };
    const stored = ws.linked!;
    // What every query does first (the CLI's openWorkspace, the server's acquireIndex).
    await ws.decodeStoredSites();
    ws.close();
    expect(problems).toEqual([
      "the snapshot is corrupt: its stored reference sites do not decode (a number is longer than 8 bytes); " +
      "the index was linked again from the files (16 records read again)",
    ]);
    expect([ws.linked === stored, ws.linked!.sitesDeferred, ws.core.deferredCount]).toEqual([false, false, 0]);
    // The refused index never answers: reading it still throws.
    expect(() => stored.sites).toThrow("its stored reference sites do not decode");
    const base = await fresh(dir, home);
    expect(ordered(ws.linked!, dir)).toEqual(ordered(base.linked!, dir));
    expect(findReferences(ws.linked!, "AthenaCannonBeam", {})).toEqual(
      findReferences(base.linked!, "AthenaCannonBeam", {}),
    );
    expect(exported(ws)).toBe(exported(base));
    // The snapshot is rewritten and reads back whole.
    expect(saveSnapshot(ws, warmStore, schemaKeyOf(ws.schema)).saved).toBe(true);
    const again = new Workspace(config(dir, home));
    const second = await warmStart(again, new SnapshotStore(home, dir), schemaKeyOf(again.schema));
    if (!second.warm) throw new Error(second.reason);
    again.close();
    await again.decodeStoredSites();
    expect([second.linked, second.problem]).toEqual(["index", undefined]);
    expect(ordered(again.linked!, dir)).toEqual(ordered(base.linked!, dir));
  });

  test("stored sites naming an asset outside the section, found late: refused with the reason, equal to a fresh build", async () => {
    const { dir, home } = await saved();
    const store = new SnapshotStore(home, dir);
    const loaded = store.load({ projectDir: dir, toolVersion: TOOL_VERSION });
    if (!loaded.ok || !loaded.snapshot.linked) throw new Error("no linked snapshot");
    const s = loaded.snapshot;
    const link = s.linked!;
    const held = link.parts.sites as { produce(): readonly ReferenceSite[] };
    const sites = held.produce().map((site, i) => (i === 0 ? { ...site, targets: [99999] } : site));
    writeFileSync(store.path, encodeSnapshot({ ...s, linked: { ...link, parts: { ...link.parts, sites } } }));
    const ws = new Workspace(config(dir, home));
    const warm = await warmStart(ws, new SnapshotStore(home, dir), schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    const problems: string[] = [];
    ws.onRecordProblem = (m) => problems.push(m);
    expect([warm.linked, ws.linked!.sitesDeferred]).toEqual(["index", true]);
    await ws.decodeDeferred(); // an export
    ws.close();
    expect(problems).toEqual([
      "the snapshot is corrupt: its stored reference sites do not decode (reference site 0 points at asset 99999 of 28); " +
      "the index was linked again from the files (16 records read again)",
    ]);
    const base = await fresh(dir, home);
    expect(ordered(ws.linked!, dir)).toEqual(ordered(base.linked!, dir));
    expect(exported(ws)).toBe(exported(base));
  });

  test("a save that would re-encode stored sites that do not decode saves the records without the linked section", async () => {
    const { dir, home } = await saved();
    const store = new SnapshotStore(home, dir);
    corruptSites(store);
    const ws = new Workspace(config(dir, home));
    const warmStore = new SnapshotStore(home, dir);
    const warm = await warmStart(ws, warmStore, schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    const problems: string[] = [];
    ws.onRecordProblem = (m) => problems.push(m);
    warmStore.forgetLoaded();
    expect(saveSnapshot(ws, warmStore, schemaKeyOf(ws.schema)).saved).toBe(true);
    expect(problems).toEqual([
      "the snapshot is corrupt: its stored reference sites do not decode (a number is longer than 8 bytes); " +
      "the snapshot was saved without its linked section",
    ]);
    // The write that threw left no temporary file behind.
    expect(readdirSync(dirname(store.path)).filter((n) => n.endsWith(".ra3tmp"))).toEqual([]);
    const back = decodeSnapshot(readFileSync(store.path), { projectDir: dir, toolVersion: TOOL_VERSION });
    expect(back.ok && [back.snapshot.files.length, back.snapshot.linked ?? null]).toEqual([16, null]);
    const again = new Workspace(config(dir, home));
    const second = await warmStart(again, new SnapshotStore(home, dir), schemaKeyOf(again.schema));
    if (!second.warm) throw new Error(second.reason);
    again.close();
    expect(second.linked).toBe("none");
    expect(ordered(again.linked!, dir)).toEqual(ordered((await fresh(dir, home)).linked!, dir));
  });

  test("stored sites and a record that both do not decode: the retry without the linked section refused too, said once", async () => {
    const { dir, home } = await saved();
    const store = new SnapshotStore(home, dir);
    corruptRecord(store, dir, "Data/Includes/Weapons.xml");
    corruptSites(store);
    const before = readFileSync(store.path);
    const record = `the snapshot is corrupt: the record of ${
      join(dir, "Data/Includes/Weapons.xml")
    } does not decode (a number is longer than 8 bytes)`;
    const sites = "the snapshot is corrupt: its stored reference sites do not decode (a number is longer than 8 bytes)";
    const ws = new Workspace(config(dir, home));
    const warmStore = new SnapshotStore(home, dir);
    const warm = await warmStart(ws, warmStore, schemaKeyOf(ws.schema));
    if (!warm.warm) throw new Error(warm.reason);
    ws.close();
    const problems: string[] = [];
    ws.onRecordProblem = (m) => problems.push(m);
    warmStore.forgetLoaded();
    // The linked section is written first: its sites throw, then the retry meets the record.
    expect(saveSnapshot(ws, warmStore, schemaKeyOf(ws.schema))).toEqual({
      saved: false,
      reason: "error",
      message: record,
    });
    expect(problems).toEqual([`${sites}; the snapshot was not saved (${record})`]);
    expect(readFileSync(store.path).equals(before)).toBe(true);
    // The server's save: the same, logged.
    const logs: string[] = [];
    const served = new Workspace(config(dir, home));
    const port = new StoreSnapshotPort(home, dir, schemaKeyOf(served.schema), (l) => logs.push(l), 60_000);
    expect((await port.restore(served)).restored).toBe(true);
    const said: string[] = [];
    served.onRecordProblem = (m) => said.push(m);
    port.store.forgetLoaded();
    port.changed(served);
    await port.flush();
    served.close();
    expect([logs, said]).toEqual([[`snapshot not saved: ${record}`], [
      `${sites}; the snapshot was not saved (${record})`,
    ]]);
    expect(readFileSync(store.path).equals(before)).toBe(true);
  });

  test("ra3 refs on a snapshot whose sites do not decode: refused on stderr, the answer a fresh build's", async () => {
    const { dir, home } = await saved();
    const cli = async (ra3Home: string, ...args: string[]) => {
      const io = memoryIo(dir, { RA3_HOME: ra3Home });
      const code = await run(["--no-progress", ...args], io);
      return { code, out: io.stdout, err: io.stderr };
    };
    // ra3 index reads no site: the stored index is served, nothing said.
    corruptSites(new SnapshotStore(home, dir));
    const index = await cli(home, "index", "--quiet");
    expect([index.code, index.err]).toEqual([0, ""]);
    const refs = await cli(home, "refs", "AthenaCannonBeam");
    expect(refs.err).toBe(
      "ra3: the snapshot is corrupt: its stored reference sites do not decode (a number is longer than 8 bytes); " +
        "the index was linked again from the files (16 records read again)\n",
    );
    const cold = await cli(TMP.make("ra3-linked-cold-"), "refs", "AthenaCannonBeam");
    expect([refs.code, refs.out]).toEqual([cold.code, cold.out]);
    expect(refs.out).toContain("AthenaCannonBeam");
    // The snapshot was rewritten: the next query is quiet and answers the same.
    const next = await cli(home, "refs", "AthenaCannonBeam");
    expect([next.err, next.out]).toEqual(["", cold.out]);
  });
});
