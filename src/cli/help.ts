/** Help text: the overview and one paragraph per command. */
import { TOOL_VERSION } from "../version.ts";
import type { CommandName } from "./args.ts";

const GLOBAL = `global flags:
  --project DIR   the mod (default: detected from the working directory)
  --sdk DIR       the RA3 (or TW/KW) mod SDK (default: $RA3_SDK, else detection, else project-only mode)
  --schema DIR    an XSD folder (default: the mod's own Schemas/xsd, else the SDK's)
  --home DIR      ra3's state folder (default: $RA3_HOME, else ~/.ra3modxml)
  --json          machine output: exactly one JSON document on stdout
  --no-progress   no progress bar      --quiet   less output
  --help, --version`;

const COMMAND_HELP: Partial<Record<CommandName, string>> = {
  index: "ra3 index [--watch]\n  Build (or refresh) the index of the mod, write the snapshot and print a summary.",
  status: "ra3 status\n  Project, SDK, schema, game and index state.",
  find: "ra3 find ID [--type T]\n  Where an asset is defined (every definition, project first). Exit 1 when not found.",
  refs: "ra3 refs ID [--type T] [--limit N] [--cursor C]\n  Who references the asset (reverse references).",
  uses:
    "ra3 uses ID [--type T] [--depth N] [--target-type T]... [--max-edges N]\n  What the asset references, with provenance (forward references; inheritFrom followed).",
  list: "ra3 list TYPE [--prefix P] [--limit N] [--cursor C]\n  The ids of an asset type, paged.",
  define: "ra3 define NAME\n  A $DEFINE's value and where it is declared.",
  include:
    "ra3 include SOURCE [--from FILE]\n  How an Include source resolves: search paths tried, the hit, case fix-ups.",
  file: "ra3 file PATH\n  Is the file active (reachable from an entry point)? Its streams and include edges.",
  unreferenced:
    "ra3 unreferenced [--type T] [--limit N] [--cursor C]\n  Project assets nothing references (only types designed to be referenced).",
  check:
    "ra3 check [PATH...] [--format text|json|sarif]\n  Diagnostics; exit status 1 when errors are found. Per file at most 200 of one code and 1000 in all\n  are listed; the rest are counted.",
  strings: "ra3 strings TEXT [--limit N]\n  Search the string table: display text → string key → assets using it.",
  export: "ra3 export [--out FILE] [--format msgpack|json]\n  Write the public snapshot format.",
  mcp:
    "ra3 mcp [--project DIR] [--sdk DIR] [--schema DIR] [--home DIR]\n  Serve the index to AI agents over MCP on stdio (also: ra3 --mcp). Started on a folder holding several mods, it answers for each (tool argument project).",
  "install-skill":
    "ra3 install-skill [--target agents|claude|project-agents|project-claude|codex|DIR]... [--uninstall] [--sync]\n  Install the ra3-mod-xml Agent Skill.",
  setup:
    "ra3 setup [--client NAME]... [--yes] [--dry-run] [--print]\n  Zero-install agent setup: stable binary, client configs, skill, index, verification.",
  doctor:
    "ra3 doctor [--project DIR] [--json]\n  Check every configured client (file, entry, a live spawn of its command), the skill copies and the snapshot; exit 0 only when all is well.",
  uninstall:
    "ra3 uninstall [--yes] [--all]\n  Revert what setup and install-skill wrote (from the install receipt); --all also deletes every snapshot and cache in the home.",
};

/** The help text for `command`, or the overview. */
export function helpText(command?: string): string {
  if (command && command in COMMAND_HELP) return `${COMMAND_HELP[command as CommandName]}\n\n${GLOBAL}\n`;
  const lines = [
    `ra3 ${TOOL_VERSION}: a fast, exact index of a Red Alert 3 mod's XML asset graph, for people and AI agents.`,
    "",
    "usage: ra3 <command> [args] [flags]     (ra3 --<command> works too)",
    "",
    "commands:",
  ];
  for (const text of Object.values(COMMAND_HELP)) {
    const [usage, what] = text.split("\n");
    lines.push(`  ${usage.replace(/^ra3 /, "").padEnd(58)} ${what.trim()}`);
  }
  lines.push(
    "",
    GLOBAL,
    "",
    "exit status: 0 ok, 1 not found or findings, 2 usage error, 3 environment error (no project, bad SDK)",
  );
  return lines.join("\n") + "\n";
}
