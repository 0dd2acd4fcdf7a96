// A rebuild cancelled after its XML phase was published: the previous index's art records are still in
// that index, so once the files are re-validated the server is back to a complete `ready` index, not
// stuck at `ready_xml` (what a first build's XML phase is).
import { describe, expect, test } from "bun:test";
import { resolveConfig } from "../../src/workspace/config.ts";
import { IndexService } from "../../src/workspace/service.ts";
import { BuildCancelled } from "../../src/workspace/workspace.ts";
import { copySample } from "./sample-copy.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

describe("a rebuild cancelled after its XML phase", () => {
  test("recovers to the complete index it started from", async () => {
    const { dir, home } = copySample(TMP, "ra3-cancel-");
    const cfg = resolveConfig({ project: dir, sdk: "", schema: null, home });
    if ("envError" in cfg) throw new Error(cfg.envError);
    const service = new IndexService(cfg, { debounceMs: 60_000, log: () => {} });
    await service.start();
    await service.strict(10_000);
    const before = service.view();
    expect([before.lifecycle.state, before.lifecycle.complete]).toEqual(["ready", true]);
    const counts = (v: typeof before) => [v.linked!.files.size, v.linked!.assets.length, v.linked!.sites.length];

    const ac = new AbortController();
    const phases: string[] = [];
    const rebuild = service.reindex((phase) => {
      phases.push(phase);
      if (phase === "link") ac.abort(); // the XML phase link is not cancellable: the art phase is
    }, ac.signal);
    expect(await rebuild.then(() => "finished", (e) => e instanceof BuildCancelled ? "cancelled" : String(e))).toBe(
      "cancelled",
    );
    expect(phases).toContain("link");
    const cancelled = service.view();
    expect([cancelled.lifecycle.state, cancelled.lifecycle.complete]).toEqual(["error", true]);

    service.recoverFromCancelledBuild(10_000);
    await service.strict(10_000);
    const after = service.view();
    expect([after.lifecycle.state, after.lifecycle.complete]).toEqual(["ready", true]);
    expect(counts(after)).toEqual(counts(before));
    await service.dispose();
  });
});
