/**
 * Damages a saved snapshot the way an encoder of another build writing the same version would: a part's
 * bytes changed and the checksum fixed, so the load accepts the file and the part fails only when read.
 * Shared by the workspace's and the server's tests of the refusal.
 */
import { expect } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { snapshotChecksum } from "../../src/store/codec.ts";
import type { SnapshotStore } from "../../src/store/snapshot-store.ts";

/** Where the linked section's bytes are in a snapshot file (after the string table, behind a 1 and its length). */
export function linkedSection(bytes: Uint8Array): { start: number; length: number } {
  const dv = new DataView(bytes.buffer, bytes.byteOffset);
  const at = 24 + dv.getUint32(12, true) + 4;
  if (bytes[at] !== 1) throw new Error("no linked section");
  return { start: at + 5, length: dv.getUint32(at + 1, true) };
}

/** The stored reference sites' range: the section's last part, behind its own u32 length. */
export function sitesRange(bytes: Uint8Array): { start: number; end: number } {
  const { start, length } = linkedSection(bytes);
  const end = start + length;
  const dv = new DataView(bytes.buffer, bytes.byteOffset);
  const found: number[] = [];
  for (let p = start; p + 4 <= end; p++) if (dv.getUint32(p, true) === end - p - 4) found.push(p + 4);
  if (found.length !== 1) throw new Error(`${found.length} candidates for the sites' range`);
  return { start: found[0], end };
}

/** The snapshot at `store` with its stored sites (not their count) made undecodable, its checksum fixed. */
export function corruptSites(store: SnapshotStore): void {
  const bytes = new Uint8Array(readFileSync(store.path));
  const { start, end } = sitesRange(bytes);
  expect([bytes[start], end - start]).toEqual([23, expect.any(Number)]); // 23 sites: a one-byte count
  expect(end - start).toBeGreaterThan(100);
  bytes.fill(0xff, start + 1, end - 1);
  bytes[end - 1] = 0x01;
  new DataView(bytes.buffer).setUint32(20, snapshotChecksum(bytes.subarray(24)), true);
  writeFileSync(store.path, bytes);
}
