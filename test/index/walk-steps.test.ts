/**
 * The include walk in steps (issue 16 item 7): a server drives it with pauses between steps, so at mod
 * scale (thousands of files, hundreds of milliseconds) it never blocks answers for long. The stepped walk
 * must be the plain walk: same reach, edges, diagnostics, streams, in the same order.
 */
import { describe, expect, test } from "bun:test";
import { walkStreams, walkStreamsSteps } from "../../src/index/include-walk.ts";
import { link, relinkSteps } from "../../src/index/link.ts";
import { doc, includes, memIndex } from "./fixture.ts";

/** A mod of 300 files in a chain (the last one back to the first), a missing and an unreached include. */
function chain(): Record<string, string> {
  const files: Record<string, string> = {
    "Data/Mod.xml": doc(includes(["all", "Chain/F0.xml"], ["instance", "Missing.xml"])),
    "Data/Unreached.xml": doc(includes(["all", "AlsoMissing.xml"])),
  };
  for (let i = 0; i < 300; i++) {
    const next = i === 299 ? "F0.xml" : `F${i + 1}.xml`; // the last one closes a cycle
    files[`Data/Chain/F${i}.xml`] = doc(
      `${includes(["all", next])}\n\t<WeaponTemplate id="W${i}" inheritFrom="W${i + 1}" />`,
    );
  }
  return files;
}

describe("the include walk and the link in steps", () => {
  test("the link yields within the walk and between its phases, and equals the plain link", () => {
    const { core, ports } = memIndex(chain());
    const walk = walkStreams(core, ports.inputs);
    const plain = link(core, ports.inputs, walk);
    const steps = relinkSteps(core, ports.inputs, undefined, null);
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    // 9 in the walk, 9 between the link's phases.
    expect(yields).toBe(18);
    const linked = step.value.linked;
    const { linkMs: _a, ...stepped } = linked.stats;
    const { linkMs: _b, ...once } = plain.stats;
    expect([linked.sites, linked.assets, linked.diagnostics, stepped]).toEqual([
      plain.sites,
      plain.assets,
      plain.diagnostics,
      once,
    ]);
    expect(plain.sites.length).toBe(300); // W299 inherits from a W300 nobody defines
  });

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
