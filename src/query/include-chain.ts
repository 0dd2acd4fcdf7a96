/**
 * The include chain of a file: the shortest way from an entry point to it, one hop per include (file,
 * line, include type), found by a breadth-first search backwards over the include edges the walk
 * followed. The chain proves the file's state: a compiled file's chain has no `reference` hop, a
 * referenced file's chain has one (an include answered by the XML itself, or the include that pulled in
 * the SDK stream the file belongs to).
 */
import { displayPath, pathKey } from "../project/paths.ts";
import type { FileInfo, IncludeEdge, LinkedIndex, StreamInfo } from "../index/linked.ts";

/** One include on the way to the file: the `<Include>` (or xi:include) at `file:line` names `to`. */
export interface ChainHop {
  readonly file: string;
  readonly line: number;
  readonly type: NonNullable<IncludeEdge["type"]>;
  readonly source: string;
  readonly to: string;
}

export interface IncludeChain {
  /** The entry point the chain starts at, its stream and why it is an entry point. */
  readonly entry: { readonly file: string; readonly stream: string; readonly reason: string };
  /** From the entry point down to the file (empty when the file is the entry point itself). */
  readonly hops: readonly ChainHop[];
}

interface Step {
  readonly from: string;
  readonly hop: Omit<ChainHop, "to">;
}

/**
 * The shortest include chain from a project entry point to `target`, or null for a file no entry point
 * includes (and for manifests, which no `<Include>` names directly).
 * @example includeChain(linked, linked.file("/m/x/Data/Units/Tank.xml")!)?.hops.length // 2
 */
export function includeChain(linked: LinkedIndex, target: FileInfo): IncludeChain | null {
  if (target.state === "not-included" || target.kind === "manifest") return null;
  const compiled = target.state === "compiled";
  const entries = new Map<string, StreamInfo>();
  const sdkRoots = new Map<string, StreamInfo>();
  for (const s of linked.streams) {
    const k = pathKey(s.entry);
    if (s.layer === "project" && s.context === "compiled") {
      if (!entries.has(k)) entries.set(k, s);
    } else if (s.referencedFrom && !sdkRoots.has(k)) sdkRoots.set(k, s);
  }
  const start = pathKey(target.path);
  const prev = new Map<string, Step | null>([[start, null]]);
  const queue = [start];
  for (let q = 0; q < queue.length; q++) {
    const key = queue[q];
    const entry = entries.get(key);
    if (entry) return chainFrom(linked, entry, key, prev);
    const visit = (fromKey: string, step: Step) => {
      if (prev.has(fromKey)) return;
      prev.set(fromKey, step);
      queue.push(fromKey);
    };
    for (const i of linked.includesTo.get(key) ?? []) {
      const e = linked.includes[i];
      if (!followable(linked, e, compiled)) continue;
      visit(pathKey(e.from), { from: key, hop: { file: e.from, line: e.line, type: e.type!, source: e.source } });
    }
    const stream = compiled ? undefined : sdkRoots.get(key);
    if (stream?.referencedFrom) {
      const r = stream.referencedFrom;
      visit(pathKey(r.file), { from: key, hop: { file: r.file, line: r.line, type: "reference", source: r.source } });
    }
  }
  return null;
}

/**
 * An edge the walk followed into its target, from a file in a state that can lead to `compiled` (only
 * compiled files, no `reference` hop) or to `referenced` (compiled or referenced files, any hop).
 */
function followable(linked: LinkedIndex, e: IncludeEdge, compiled: boolean): boolean {
  if (e.resolution !== "file" || e.type === null) return false;
  if (compiled && e.type === "reference") return false;
  const from = linked.file(e.from);
  if (!from) return false;
  return compiled ? from.state === "compiled" : from.state !== "not-included";
}

/** The chain from `entryKey` down to the target, following the steps the search recorded. */
function chainFrom(
  linked: LinkedIndex,
  entry: StreamInfo,
  entryKey: string,
  prev: ReadonlyMap<string, Step | null>,
): IncludeChain {
  const hops: ChainHop[] = [];
  let key = entryKey;
  for (let step = prev.get(key); step; step = prev.get(key)) {
    const to = linked.file(step.from)?.path ?? step.from;
    hops.push({ ...step.hop, file: displayPath(linked, step.hop.file), to: displayPath(linked, to) });
    key = step.from;
  }
  return { entry: { file: displayPath(linked, entry.entry), stream: entry.name, reason: entry.reason }, hops };
}
