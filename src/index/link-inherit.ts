/**
 * Link phase, inheritance: the `inheritFrom` chains that come back to where they started (`A → B → A`,
 * or an asset naming itself, `A → A`). The builder cannot flatten such an asset, so each member's
 * `inheritFrom` gets an error naming the whole chain, and queries label those edges as a cycle.
 */
import { displayPath } from "../project/paths.ts";
import { DiagnosticCapper, shortenedChain } from "./link-caps.ts";
import type { LinkContext } from "./link-context.ts";
import type { AssetDef, Diagnostic, InheritCycle, OmittedDiagnostic, ReferenceSite } from "./linked.ts";

export interface InheritTable {
  /** Each cycle once, starting at its member with the lowest asset index. */
  readonly cycles: readonly InheritCycle[];
  /**
   * One error per member of a cycle in a project file, at its `inheritFrom`: of one file, the first of
   * them held (see `link-caps.ts`)…
   */
  readonly diagnostics: readonly Diagnostic[];
  /** …and the rest counted. */
  readonly omitted: readonly OmittedDiagnostic[];
}

/** The other members' `inheritFrom` places a cycle's message lists at most. */
const OTHERS_SHOWN = 4;

/**
 * The cycles of the `inheritFrom` graph (each asset's first resolved `inheritFrom`, to its best target;
 * `inheritSites`: the indexes of the `inheritFrom` sites in order, when the caller has them).
 * @example linkInherit(ctx, assets, sites).cycles.map((c) => c.assets.length) // [2]
 */
export function linkInherit(
  ctx: LinkContext,
  assets: readonly AssetDef[],
  sites: readonly ReferenceSite[],
  inheritSites?: readonly number[],
): InheritTable {
  // Asset index → its first resolved inheritFrom site (-1: none); typed arrays, not maps: the phase
  // runs on every link, patched ones too, over ~10,000 inheritFrom sites at Corona scale.
  const parentSite = new Int32Array(assets.length).fill(-1);
  const consider = (s: ReferenceSite) => {
    if (s.kind === "inheritFrom" && s.from >= 0 && s.targets.length > 0 && parentSite[s.from] < 0) {
      parentSite[s.from] = s.index;
    }
  };
  if (inheritSites) { for (const i of inheritSites) consider(sites[i]); }
  else for (const s of sites) consider(s);
  // The graph has at most one edge out of each asset: walk each path once, colouring as it goes
  // (0 unseen, 1 on the current path, 2 done), starting from each asset with an edge in index order.
  const state = new Uint8Array(assets.length);
  const cycles: InheritCycle[] = [];
  for (let startAt = 0; startAt < parentSite.length; startAt++) {
    if (parentSite[startAt] < 0 || state[startAt] !== 0) continue;
    const path: number[] = [];
    let at: number | undefined = startAt;
    while (at !== undefined && state[at] === 0) {
      state[at] = 1;
      path.push(at);
      const si: number = parentSite[at];
      at = si < 0 ? undefined : sites[si].targets[0];
    }
    if (at !== undefined && state[at] === 1) {
      const members = path.slice(path.indexOf(at));
      const first = members.indexOf(Math.min(...members));
      const ordered = [...members.slice(first), ...members.slice(0, first)];
      cycles.push({ assets: ordered, sites: ordered.map((a) => parentSite[a]) });
    }
    for (const p of path) state[p] = 2;
  }
  return { cycles, ...cycleDiagnostics(ctx, assets, sites, cycles) };
}

/**
 * An error at each member's `inheritFrom` (project files), the chain written from that member: a long
 * cycle's chain and other places shortened (a cycle of n members made n messages of n names each: 4,000
 * members took 10 s and 1.2 GB), and past the cap of one file only counted.
 */
function cycleDiagnostics(
  ctx: LinkContext,
  assets: readonly AssetDef[],
  sites: readonly ReferenceSite[],
  cycles: readonly InheritCycle[],
): { readonly diagnostics: readonly Diagnostic[]; readonly omitted: readonly OmittedDiagnostic[] } {
  const out = new DiagnosticCapper();
  const name = (a: number) => `${assets[a].type} ${assets[a].id}`;
  for (const c of cycles) {
    const n = c.assets.length;
    c.assets.forEach((_, k) => {
      const site = sites[c.sites[k]];
      if (!ctx.insideProject(site.file)) return;
      if (out.countedPast(site.file, "inherit-cycle", "error", site.line, site.column)) return;
      // The chain from this member round to it again: n + 1 names (a long one shortened).
      const chain = shortenedChain(n + 1, (j) => name(c.assets[(k + j) % n])).join(" → ");
      const others: string[] = [];
      for (let j = 0; j < n && others.length < OTHERS_SHOWN; j++) {
        if (j === k) continue;
        const si = c.sites[j];
        others.push(`${displayPath(ctx.inputs, sites[si].file)}:${sites[si].line}`);
      }
      if (n - 1 > OTHERS_SHOWN) others.push(`and ${n - 1 - OTHERS_SHOWN} more`);
      const where = n === 1 ? "it names itself" : `the other inheritFrom: ${others.join(", ")}`;
      out.add({
        code: "inherit-cycle",
        severity: "error",
        message: `inheritFrom cycle: ${chain} (${where}); the builder cannot resolve this inheritance`,
        file: site.file,
        line: site.line,
        column: site.column,
      });
    });
  }
  return out.result();
}
