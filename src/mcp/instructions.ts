/**
 * The `instructions` of the initialize result: what the model may be shown before any tool call. A
 * fixed part taken by heading from the embedded skill (one source of truth) plus what the server knows
 * at startup: the project, the game, SDK or project-only mode, the index state. Kept under a budget,
 * because clients put it into the system prompt.
 */
import { skillSection } from "../skill/embedded.ts";
import type { WorkspaceConfig } from "../workspace/config.ts";
import type { SavedSnapshotFacts } from "../workspace/snapshots.ts";

export const MAX_INSTRUCTIONS = 2_500;

export interface ServingFacts {
  readonly mode: "single" | "container" | "none";
  readonly root: string;
  /** Single mode: the project's configuration. */
  readonly config?: WorkspaceConfig | null;
  /** Container mode: the projects' folder names. */
  readonly projects?: readonly string[];
  /** Why there is no single project (container or none). */
  readonly note?: string | null;
  /** Single mode: the snapshot the index will start from, if one is saved. */
  readonly snapshot?: SavedSnapshotFacts | null;
}

const LEAD =
  "ra3 indexes a Red Alert 3 / SAGE mod's XML asset graph (assets, references, includes, inheritFrom, $DEFINEs, string tables) " +
  "and answers from memory: ask these tools instead of grepping XML.";

/** The dynamic facts, a few lines. */
function servingFacts(f: ServingFacts): string {
  if (f.mode === "none") {
    return `No mod found: ${
      f.note ?? "no project"
    }. get_status answers with state no_index: do not use these tools for this folder.`;
  }
  if (f.mode === "container") {
    const names = f.projects ?? [];
    const shown = names.length > 8 ? `${names.slice(0, 8).join(", ")}, …` : names.join(", ");
    return `This server answers for ${names.length} mods below ${f.root}: ${shown}. Pass project (a name from list_projects) to every tool.`;
  }
  const cfg = f.config;
  const lines = [`Project: ${f.root}${cfg?.sdk?.game ? ` (game ${cfg.sdk.game})` : ""}.`];
  if (cfg?.sdk) lines.push(`SDK: ${cfg.sdk.dir} (vanilla assets, defines and manifests are indexed too).`);
  else {lines.push(
      "No SDK: project-only mode. Vanilla assets and defines are not indexed; an id the project uses but does not define is probably vanilla, once find_asset names no project file with an XML error.",
    );}
  lines.push(
    `${
      f.snapshot
        ? `Index: starting from the snapshot saved ${f.snapshot.generatedAt} (build ${f.snapshot.buildId}); files changed since are re-read.`
        : "Index: building since startup (no snapshot saved yet)."
    } Call get_status first; if index.state is no_index or index.projectDir is not the folder you work in, do not use these tools for it.`,
  );
  return lines.join("\n");
}

const GUIDE_POINTER = "More: get_usage_guide (topics: workflows, a tool name, includes, inheritFrom, …).";

/**
 * The initialize `instructions`: lead, serving facts, the skill's rules, then the usage-guide pointer.
 * Room for the pointer is kept first (it is one line and leads to everything else); the rules are cut
 * at a whole item when the rest would pass {@link MAX_INSTRUCTIONS}.
 * @example buildInstructions({ mode: "none", root: "/tmp", note: "no mod" }).startsWith("ra3 indexes") // true
 */
export function buildInstructions(f: ServingFacts): string {
  const parts = [LEAD, servingFacts(f)];
  const join = (xs: readonly string[]) => xs.join("\n\n");
  const pointer = join([...parts, GUIDE_POINTER]).length <= MAX_INSTRUCTIONS ? GUIDE_POINTER : null;
  const rules = skillSection("Rules");
  if (rules !== null) {
    const fixed = join(pointer ? [...parts, pointer] : parts).length;
    const room = MAX_INSTRUCTIONS - fixed - 2;
    const fitted = rules.length <= room ? rules : cutAtItem(rules, room);
    if (fitted) parts.push(fitted);
  }
  if (pointer) parts.push(pointer);
  return join(parts);
}

/** The longest prefix of a Markdown list section ending at a whole list item that fits `room`, or null. */
function cutAtItem(section: string, room: number): string | null {
  if (room < 200) return null;
  const lines = section.split("\n");
  let best: string | null = null;
  for (let i = 1; i <= lines.length; i++) {
    const next = lines[i];
    const atItemEnd = next === undefined || /^\s*(\d+\.|-)\s/.test(next) || next.trim() === "";
    if (!atItemEnd) continue;
    const text = lines.slice(0, i).join("\n");
    if (text.length > room) break;
    best = text;
  }
  return best;
}
