/**
 * The snapshot codec's refusals of damaged input, each by its exact message, through the public
 * encode/decode functions: stored sites with bytes after them, an empty asset list in the linked
 * section, a list that gives fewer items than it said (an encoder bug), and a temporary file that ends
 * before what was written to it (read back for the checksum). Each input is a real snapshot of the
 * sample mod, damaged in one place (the checksum fixed where the bytes changed, as an encoder of another
 * build would write it).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { ReferenceSite } from "../../src/index/linked.ts";
import {
  decodeSnapshot,
  encodeSnapshot,
  type Snapshot,
  snapshotChecksum,
  type SnapshotSink,
  writeSnapshotSteps,
} from "../../src/store/codec.ts";
import { SnapshotStore } from "../../src/store/snapshot-store.ts";
import { runSteps } from "../../src/steps.ts";
import { TOOL_VERSION } from "../../src/version.ts";
import { saveSnapshot, schemaKeyOf } from "../../src/workspace/snapshots.ts";
import { fresh } from "../workspace/fresh-build.ts";
import { copySample } from "../workspace/sample-copy.ts";
import { linkedSection, sitesRange } from "../workspace/damaged-snapshot.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

/** A fresh build of the sample saved as a snapshot: its bytes, and what decoding them expects. */
async function savedBytes(): Promise<{ bytes: Uint8Array; expect: { projectDir: string; toolVersion: string } }> {
  const { dir, home } = copySample(TMP, "ra3-codec-messages-");
  const ws = await fresh(dir, home);
  const store = new SnapshotStore(home, dir);
  if (!saveSnapshot(ws, store, schemaKeyOf(ws.schema)).saved) throw new Error("not saved");
  return { bytes: new Uint8Array(readFileSync(store.path)), expect: { projectDir: dir, toolVersion: TOOL_VERSION } };
}

/** The decoded snapshot of `bytes` (it must decode). */
function decoded(bytes: Uint8Array, expectation: { projectDir: string; toolVersion: string }): Snapshot {
  const r = decodeSnapshot(bytes, expectation);
  if (!r.ok) throw new Error(r.message);
  return r.snapshot;
}

describe("the snapshot codec's messages for damaged input", () => {
  test("stored sites with bytes after them: refused when first read, saying how many are left", async () => {
    const { bytes, expect: expectation } = await savedBytes();
    const { end } = sitesRange(bytes);
    // Three bytes more at the end of the sites (the end of the linked section): every length that
    // covers them grows by three (the sites', the section's, the body's and the prefix's), the checksum fixed.
    const grown = new Uint8Array(bytes.length + 3);
    grown.set(bytes.subarray(0, end));
    grown.set([0, 0, 0], end);
    grown.set(bytes.subarray(end), end + 3);
    const dv = new DataView(grown.buffer);
    const { start: section } = linkedSection(bytes);
    const headerLength = dv.getUint32(12, true);
    const { start: sites } = sitesRange(bytes);
    for (const at of [sites - 4, section - 4, 24 + headerLength, 16]) {
      dv.setUint32(at, dv.getUint32(at, true) + 3, true);
    }
    dv.setUint32(20, snapshotChecksum(grown.subarray(24)), true);
    const s = decoded(grown, expectation);
    const held = s.linked!.parts.sites as { produce(): readonly ReferenceSite[] };
    expect(() => held.produce()).toThrow(
      "the snapshot is corrupt: its stored reference sites do not decode (3 bytes are left after them)",
    );
    // The same snapshot without the three bytes reads its 23 sites.
    expect((decoded(bytes, expectation).linked!.parts.sites as typeof held).produce().length).toBe(23);
  });

  test("an empty asset list in the linked section: the section refused with the reason, the records kept", async () => {
    const { bytes, expect: expectation } = await savedBytes();
    const s = decoded(bytes, expectation);
    const link = s.linked!;
    const byId = new Map(link.parts.ranking.byId);
    const [key, list] = [...byId][0];
    // A list that is empty to the writer but still starts with its asset to the writer's key check (what
    // a writer that lost the list's items would store).
    byId.set(key, { 0: list[0], length: 0, [Symbol.iterator]: [][Symbol.iterator] } as unknown as number[]);
    const damaged = encodeSnapshot({
      ...s,
      linked: { ...link, parts: { ...link.parts, ranking: { ...link.parts.ranking, byId } } },
    });
    const back = decoded(damaged, expectation);
    expect([back.linked, back.linkedProblem, back.files.length]).toEqual([undefined, "an asset list is empty", 16]);
  });

  test("a list that gives fewer items than its length said: the encoder stops with both numbers", async () => {
    const { bytes, expect: expectation } = await savedBytes();
    const s = decoded(bytes, expectation);
    const link = s.linked!;
    const real = link.parts.ranking.byId;
    /** The byId lists, claiming one more than they hold. */
    class Overcounted extends Map<string, readonly number[]> {
      override get size(): number {
        return super.size + 1;
      }
    }
    const byId = new Overcounted(real);
    const n = [...real.keys()].length;
    expect(() =>
      encodeSnapshot({ ...s, linked: { ...link, parts: { ...link.parts, ranking: { ...link.parts.ranking, byId } } } })
    ).toThrow(`snapshot encoder: list byId said ${n + 1} items, gave ${n}`);
  });

  test("a file that ends before what was written to it, read back for the checksum: where it ends, of how many", async () => {
    const { bytes, expect: expectation } = await savedBytes();
    const s = decoded(bytes, expectation);
    const size = encodeSnapshot(s).length;
    // A sink whose reads stop at byte 1000 (another process truncated the temporary file meanwhile).
    let held = new Uint8Array(0);
    const truncated: SnapshotSink = {
      append(b) {
        const next = new Uint8Array(held.length + b.length);
        next.set(held);
        next.set(b, held.length);
        held = next;
      },
      writeAt(at, b) {
        held.set(b, at);
      },
      readAt(at, into) {
        const n = Math.max(0, Math.min(into.length, 1000 - at));
        into.set(held.subarray(at, at + n));
        return n;
      },
    };
    expect(size).toBeGreaterThan(1000);
    expect(() => runSteps(writeSnapshotSteps(s, truncated, 256))).toThrow(
      `snapshot writer: the file ends at 1000 of ${size} bytes`,
    );
  });
});
