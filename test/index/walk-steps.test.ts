/**
 * The include walk in steps (issue 16 item 7): a server drives it with pauses between steps, so at mod
 * scale (thousands of files, hundreds of milliseconds) it never blocks answers for long. The stepped walk
 * must be the plain walk: same reach, edges, diagnostics, streams, in the same order.
 */
import { describe, expect, test } from "bun:test";
import { walkStreams, walkStreamsSteps } from "../../src/index/include-walk.ts";
import { doc, includes, memIndex } from "./fixture.ts";

describe("the include walk in steps", () => {
  test("yields every few files and returns exactly the plain walk (a chain, a cycle, a missing file, an unreached one)", () => {
    const files: Record<string, string> = {
      "Data/Mod.xml": doc(includes(["all", "Chain/F0.xml"], ["instance", "Missing.xml"])),
      "Data/Unreached.xml": doc(includes(["all", "AlsoMissing.xml"])),
    };
    for (let i = 0; i < 300; i++) {
      const next = i === 299 ? "F0.xml" : `F${i + 1}.xml`; // the last one closes a cycle
      files[`Data/Chain/F${i}.xml`] = doc(`${includes(["all", next])}\n\t<WeaponTemplate id="W${i}" />`);
    }
    const { core, ports } = memIndex(files);
    const plain = walkStreams(core, ports.inputs);
    const steps = walkStreamsSteps(core, ports.inputs);
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    // 301 files visited and 1 unreached one checked: a yield after every 32.
    expect(yields).toBe(9);
    expect(step.value).toEqual(plain);
    expect([...step.value.reached.keys()]).toEqual([...plain.reached.keys()]);
    expect(step.value.includes).toEqual(plain.includes);
    expect(plain.reached.size).toBe(301); // Mod.xml and the chain (a missing target is not reached)
    expect(plain.diagnostics.map((d) => d.code)).toEqual([
      "include-cycle",
      "include-not-found",
      "include-not-found",
    ]);
  });
});
