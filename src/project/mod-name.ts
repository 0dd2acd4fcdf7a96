/**
 * The mod's own name, when it differs from its folder's. Mods include their own files as
 * `DATA:<ModName>/Data/…`, which BinaryAssetBuilder finds through `SDK/Mods` or the mod's parent folder —
 * only when the folder is named `<ModName>`. A mod cloned under another name (`UpheavalEx` for
 * `Upheaval`) would then lose every self-include; the builder on the author's machine does not. The
 * evidence, strongest first: a `.babproj` stream written as `…\Mods\<Name>\…` whose rest is a file of
 * the project; or at least two `DATA:<Name>/…` includes that resolve nowhere but whose rest is a file of
 * the project. Pure: the caller supplies the evidence and an existence test.
 */
import { segmentsOf, toPosix } from "./paths.ts";

/** Self-includes needed before an include-only name is believed (one could be a coincidence). */
const MIN_SELF_INCLUDES = 2;

export interface OwnModName {
  readonly name: string;
  /** Where the name was read: a babproj stream path, or the project's own includes. */
  readonly from: "babproj" | "includes";
  /** How many unresolved `DATA:<name>/…` includes have their rest in the project. */
  readonly includes: number;
}

/**
 * The name the mod calls itself, when that is not `folder` (compared ignoring case), or null.
 * `unresolvedData` are the remainders (after `DATA:`) of the project's includes that resolve nowhere;
 * `inProject(rest)` says whether a `/`-separated path exists under the project root.
 * @example ownModName("UpheavalEx", ["G:\\SDK\\Mods\\Upheaval\\data\\mod.xml"], [], (r) => r === "data/mod.xml") // { name: "Upheaval", from: "babproj", includes: 0 }
 */
export function ownModName(
  folder: string,
  babprojStreams: readonly string[],
  unresolvedData: readonly string[],
  inProject: (rest: string) => boolean,
): OwnModName | null {
  const counts = new Map<string, { name: string; n: number }>();
  for (const r of unresolvedData) {
    const segs = segmentsOf(r);
    if (segs.length < 2) continue;
    const name = segs[0];
    if (name.toLowerCase() === folder.toLowerCase() || !inProject(segs.slice(1).join("/"))) continue;
    const c = counts.get(name.toLowerCase());
    if (c) c.n++;
    else counts.set(name.toLowerCase(), { name, n: 1 });
  }
  for (const written of babprojStreams) {
    const segs = segmentsOf(toPosix(written).replace(/^[A-Za-z]:/, ""));
    const mods = segs.findIndex((s) => s.toLowerCase() === "mods");
    if (mods < 0 || mods + 2 >= segs.length) continue;
    const name = segs[mods + 1];
    if (name.toLowerCase() === folder.toLowerCase() || !inProject(segs.slice(mods + 2).join("/"))) continue;
    return { name, from: "babproj", includes: counts.get(name.toLowerCase())?.n ?? 0 };
  }
  let best: { name: string; n: number } | null = null;
  for (const c of [...counts.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (c.n >= MIN_SELF_INCLUDES && (!best || c.n > best.n)) best = c;
  }
  return best ? { name: best.name, from: "includes", includes: best.n } : null;
}
