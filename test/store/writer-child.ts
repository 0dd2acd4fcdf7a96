// A child process for the concurrency and crash tests: writes `count` big snapshots of the sample mod to
// the same place, each with buildId = tag * 1000 + i, either raw (atomic write only) or through the store
// (lock); or ("crash") takes the store's lock and kills itself with SIGKILL during the snapshot write,
// after the temporary file is complete and before its rename: what `kill -9` during a save leaves.
// Usage: <runtime> writer-child.ts raw|store|crash <target-or-home> <projectDir> <tag> <count>
import { writeFileAtomic } from "../../src/disk/atomic.ts";
import { nodeFileSystem } from "../../src/disk/port.ts";
import { encodeSnapshot } from "../../src/store/codec.ts";
import { acquireLock } from "../../src/store/lock.ts";
import { SnapshotStore } from "../../src/store/snapshot-store.ts";
import { recordsOf, SAMPLE, snapshotOf } from "./records.ts";

const [mode, target, projectDir, tagText, countText] = process.argv.slice(2);
const tag = Number(tagText);
const count = Number(countText);
const base = recordsOf(SAMPLE, null);
// ~200 copies under distinct paths: a snapshot of a few MB, so a write takes a while.
const files = Array.from({ length: 200 }, (_, k) => base.map((f) => ({ ...f, path: `${f.path}.${k}` }))).flat();
if (mode === "crash") {
  const store = new SnapshotStore(target, projectDir);
  acquireLock(store.lockPath);
  writeFileAtomic(
    nodeFileSystem(),
    store.path,
    encodeSnapshot(snapshotOf(projectDir, files, { buildId: tag * 1000 })),
    {
      beforeRename: () => process.kill(process.pid, "SIGKILL"),
    },
  );
}
let written = 0;
let busy = 0;
for (let i = 0; i < count; i++) {
  const s = snapshotOf(projectDir, files, { buildId: tag * 1000 + i });
  if (mode === "raw") {
    writeFileAtomic(nodeFileSystem(), target, encodeSnapshot(s));
    written++;
  } else {
    const r = new SnapshotStore(target, projectDir).save(s);
    if (r.saved) written++;
    else if (r.reason === "busy") busy++;
    else throw new Error(r.message);
  }
}
process.stdout.write(JSON.stringify({ written, busy }) + "\n");
