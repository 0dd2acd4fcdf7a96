/**
 * The include walk in steps (issue 16 item 7): a server drives it with pauses between steps, so at mod
 * scale (thousands of files, hundreds of milliseconds) it never blocks answers for long. The stepped walk
 * must be the plain walk: same reach, edges, diagnostics, streams, in the same order.
 */
import { describe, expect, test } from "bun:test";
import { walkStreams, walkStreamsSteps } from "../../src/index/include-walk.ts";
import { link, relinkSteps } from "../../src/index/link.ts";
import { doc, includes, memIndex, ROOT } from "./fixture.ts";
import { pathKey } from "../../src/project/paths.ts";

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
    // 9 in the walk, 9 between the link's phases, 9 in the reference phase (301 segments, a yield per 32),
    // 8 within the phases (files 1, assets 1, ranking 2, the reference phase's end 3, Poid sites 1).
    expect(yields).toBe(35);
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

  test("the reference phase yields every 32 segments, after a segment that brought 4,096 sites and within a file every 4,096 references, and equals the plain link", () => {
    /** Yields of the link from a given walk (none in the walk) and its index, with the plain link's. */
    const stepped = (files: Record<string, string>) => {
      const { core, ports } = memIndex(files);
      const walk = walkStreams(core, ports.inputs);
      const plain = link(core, ports.inputs, walk);
      const steps = relinkSteps(core, ports.inputs, walk, null);
      let yields = 0;
      let step = steps.next();
      for (; !step.done; step = steps.next()) yields++;
      return { yields, linked: step.value.linked, plain };
    };
    // The chain: 301 small segments, a yield after every 32nd (9), beside the 9 between the phases and
    // the 8 within them.
    const small = stepped(chain());
    expect(small.yields).toBe(26);
    // Three files of 5,000 inheritFrom sites each: each segment ends a step (3), one more yield per file
    // than the segment count alone would give.
    const big: Record<string, string> = {
      "Data/Mod.xml": doc(includes(["all", "A.xml"], ["all", "B.xml"], ["all", "C.xml"])),
    };
    for (const name of ["A", "B", "C"]) {
      const lines: string[] = [];
      for (let i = 0; i < 5000; i++) lines.push(`\t<WeaponTemplate id="${name}${i}" inheritFrom="${name}${i + 1}" />`);
      big[`Data/${name}.xml`] = doc(lines.join("\n"));
    }
    const large = stepped(big);
    // Each file's 5,000 references in steps of their own (a yield after 4,096 and after the rest), then its
    // segment ends a step (3 per file); the 8 within the phases, and the ranking's two sorts of 15,000 (the
    // order, the one type's list) in steps: 4 runs of 4,096, 2 merge passes and a yield after 16,384
    // merged, each.
    expect(large.yields).toBe(9 + 3 * 3 + 8 + 2 * 7);
    for (const { linked, plain } of [small, large]) {
      const { linkMs: _a, ...a } = linked.stats;
      const { linkMs: _b, ...b } = plain.stats;
      expect([linked.sites, linked.assets, linked.diagnostics, a]).toEqual([
        plain.sites,
        plain.assets,
        plain.diagnostics,
        b,
      ]);
    }
    expect(large.plain.sites.length).toBe(15_000);
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

  test("after files appear, the entry plan is made again in steps first (the record order, then a yield per 256 files), the same walk", () => {
    const { core, ports } = memIndex(chain());
    const walkOf = () => {
      const steps = walkStreamsSteps(core, ports.inputs);
      let yields = 0;
      let step = steps.next();
      for (; !step.done; step = steps.next()) yields++;
      return { yields, walk: step.value };
    };
    const settled = walkOf(); // the plan is that of these records: nothing to redo
    // A file appears (the include structure changes): the plan is out of date, 303 files to check.
    core.applyChanges([{ path: `${ROOT}/Data/Extra.xml`, bytes: new TextEncoder().encode(doc("")) }]);
    const stale = walkOf();
    expect(stale.yields).toBe(settled.yields + 2);
    expect(walkOf().yields).toBe(settled.yields);
    expect(stale.walk).toEqual(walkStreams(core, ports.inputs));
    expect(stale.walk.reached.size).toBe(settled.walk.reached.size);
  });
});

describe("a file walked again in a stronger context", () => {
  test("has its edges listed once, at its first walk, in the walk's order; its includes resolve the same", () => {
    // Shared.xml is first reached through an instance include (context 1), then through an `all` one
    // (context 0), so it is walked twice; Leaf.xml with it. Gone.xml does not exist.
    const { core, ports } = memIndex({
      "Data/Mod.xml": doc(includes(["instance", "Inst.xml"], ["all", "Mid.xml"])),
      "Data/Inst.xml": doc(includes(["all", "Shared.xml"])),
      "Data/Mid.xml": doc(includes(["all", "Shared.xml"])),
      "Data/Shared.xml": doc(includes(["all", "Leaf.xml"], ["all", "Gone.xml"])),
      "Data/Leaf.xml": doc(`\t<WeaponTemplate id="LeafWeapon" />`),
    });
    const walk = walkStreams(core, ports.inputs);
    const rel = (p: string | null) => (p === null ? null : p.slice(ROOT.length + 1));
    expect(walk.includes.map((e) => [rel(e.from), e.source, rel(e.to), e.resolution])).toEqual([
      ["Data/Mod.xml", "Inst.xml", "Data/Inst.xml", "file"],
      ["Data/Inst.xml", "Shared.xml", "Data/Shared.xml", "file"],
      ["Data/Shared.xml", "Leaf.xml", "Data/Leaf.xml", "file"],
      ["Data/Shared.xml", "Gone.xml", null, "missing"],
      ["Data/Mod.xml", "Mid.xml", "Data/Mid.xml", "file"],
      ["Data/Mid.xml", "Shared.xml", "Data/Shared.xml", "file"],
    ]);
    // Walked again in the stronger context: compiled, as is what it includes.
    expect(walk.reached.get(pathKey(`${ROOT}/Data/Shared.xml`))!.context).toBe(0);
    expect(walk.reached.get(pathKey(`${ROOT}/Data/Leaf.xml`))!.context).toBe(0);
    // A second walk of the same records (its includes answered from the resolver's cache) is the same.
    expect(walkStreams(core, ports.inputs)).toEqual(walk);
  });
});
