// The snapshot as the CLI and the server use it: leftovers of crashed writers are removed on start, the
// server saves its first complete build promptly, and no write stores the state already on disk.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { TEMP_SUFFIX } from "../../src/store/atomic.ts";
import { SnapshotStore } from "../../src/store/snapshot-store.ts";

const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");

function copySample(): { dir: string; home: string } {
  const base = mkdtempSync(join(tmpdir(), "ra3-snapshots-"));
  const dir = join(base, "Sample Mod");
  cpSync(SAMPLE, dir, { recursive: true });
  return { dir, home: join(base, "home") };
}

async function ra3(dir: string, home: string, ...args: string[]) {
  const io = memoryIo(dir, { RA3_HOME: home });
  const code = await run(["--no-progress", ...args], io);
  return { code, out: io.stdout, err: io.stderr };
}

/** A pid that certainly existed and has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

describe("leftovers on start", () => {
  test("a dead writer's full-size temporary snapshot is removed when the next command starts", async () => {
    const { dir, home } = copySample();
    expect((await ra3(dir, home, "index")).code).toBe(0);
    const store = new SnapshotStore(home, dir);
    const folder = join(home, "snapshots");
    const name = store.path.slice(folder.length + 1);
    const leftover = join(folder, `.${name}.${deadPid()}-0123456789ab${TEMP_SUFFIX}`);
    copyFileSync(store.path, leftover);
    expect(statSync(leftover).size).toBe(statSync(store.path).size);
    const r = await ra3(dir, home, "find", "AlliedAthenaCannon");
    expect([r.code, r.err]).toEqual([0, ""]);
    expect(readdirSync(folder).sort()).toEqual([store.metaPath.slice(folder.length + 1), name].sort());
  });
});
