/**
 * Command-line parsing: argv → one typed, validated {@link CliConfig}. Nothing else in the program
 * looks at raw argv. Usage problems come back as a {@link UsageError} value (exit status 2).
 *
 * Every flag and command is defined once, in {@link FLAGS} and {@link COMMAND_SPECS}: the parser reads
 * them, and `help.ts` renders the help from the same tables, so the two cannot drift.
 */
import { parseArgs } from "node:util";
import { fromFileUri } from "../project/paths.ts";

export const COMMANDS = [
  "index",
  "status",
  "find",
  "refs",
  "uses",
  "list",
  "define",
  "include",
  "file",
  "files",
  "unreferenced",
  "check",
  "strings",
  "export",
  "mcp",
  "install-skill",
  "setup",
  "doctor",
  "uninstall",
  "help",
  "version",
] as const;

export type CommandName = (typeof COMMANDS)[number];

/** One flag: how it parses and how the help shows it. */
export interface FlagSpec {
  readonly type: "string" | "boolean";
  readonly short?: string;
  readonly multiple?: boolean;
  /** The value's placeholder in the help (`DIR`, `N`), for string flags. */
  readonly value?: string;
  /** One line for the help. */
  readonly help: string;
  /** A path flag: a `file:` URI is accepted and decoded (setup writes one when a client would rewrite `$`). */
  readonly path?: boolean;
}

/** Every flag ra3 accepts (the command aliases `--<command>` are added by the parser). */
export const FLAGS = {
  project: {
    type: "string",
    value: "DIR",
    path: true,
    help: "the mod (default: detected from the working directory)",
  },
  sdk: {
    type: "string",
    value: "DIR",
    path: true,
    help: "the RA3 (or TW/KW) mod SDK (default: $RA3_SDK, else detection, else project-only mode)",
  },
  schema: {
    type: "string",
    value: "DIR",
    path: true,
    help: "an XSD folder (default: the mod's own Schemas/xsd, else the SDK's)",
  },
  home: {
    type: "string",
    value: "DIR",
    path: true,
    help: "ra3's state folder (default: $RA3_HOME, else ~/.ra3modxml)",
  },
  entry: {
    type: "string",
    value: "FILE",
    multiple: true,
    path: true,
    help: "an entry point of the build (repeatable; relative to the mod): these instead of the detected ones",
  },
  json: { type: "boolean", help: "machine output: exactly one JSON document on stdout" },
  "no-progress": { type: "boolean", help: "no progress bar" },
  quiet: { type: "boolean", short: "q", help: "less output" },
  help: { type: "boolean", short: "h", help: "this help (ra3 COMMAND --help: the command's help)" },
  version: { type: "boolean", short: "V", help: "the version" },
  type: { type: "string", value: "T", help: "only assets of this schema type" },
  prefix: { type: "string", value: "P", help: "only ids (ra3 files: paths) starting with P" },
  limit: { type: "string", value: "N", help: "at most N items per page" },
  cursor: { type: "string", value: "C", help: "the page after the one that returned cursor C" },
  depth: { type: "string", value: "N", help: "follow references N levels deep (1–3)" },
  "target-type": { type: "string", value: "T", multiple: true, help: "only references to this type (repeatable)" },
  "max-edges": { type: "string", value: "N", help: "stop after N edges" },
  kind: {
    type: "string",
    value: "K",
    multiple: true,
    help:
      "only references of this kind (repeatable): attribute, content, inheritFrom, default, name, manifest, heuristic",
  },
  "include-overrides": {
    type: "boolean",
    help: "also list assets that override a vanilla asset (left out without an SDK: vanilla may use them)",
  },
  from: { type: "string", value: "FILE", help: "resolve as if included from FILE" },
  format: { type: "string", value: "F", help: "output format" },
  state: { type: "string", value: "S", help: "only files in this state: compiled, referenced or not-included" },
  out: { type: "string", value: "FILE", help: "where to write" },
  watch: { type: "boolean", help: "keep running and refresh the index when files change" },
  client: {
    type: "string",
    value: "NAME",
    multiple: true,
    help: "configure this MCP client (repeatable; default: the clients found installed)",
  },
  name: { type: "string", value: "NAME", help: "the server entry's name in the client configs (default: ra3)" },
  scope: {
    type: "string",
    value: "S",
    help: "user (the client's own file, default) or project (a file in the mod folder)",
  },
  target: {
    type: "string",
    value: "WHERE",
    multiple: true,
    help: "agents|claude|project-agents|project-claude|codex|DIR (repeatable)",
  },
  yes: { type: "boolean", short: "y", help: "do it without asking" },
  "dry-run": { type: "boolean", help: "show every change (config diffs included) and write nothing" },
  uninstall: { type: "boolean", help: "remove instead of install" },
  sync: { type: "boolean", help: "act on every copy recorded in the ledger" },
  print: { type: "boolean", help: "print the generic JSON entry for other clients" },
  all: { type: "boolean", help: "also delete every snapshot and cache file in the home" },
} as const satisfies Record<string, FlagSpec>;

export type FlagName = keyof typeof FLAGS;

/** The flags every command accepts. */
export const GLOBAL_FLAGS: readonly FlagName[] = [
  "project",
  "sdk",
  "schema",
  "home",
  "entry",
  "json",
  "no-progress",
  "quiet",
  "help",
  "version",
];

/** One command: its positional arguments, its own flags (besides the global ones) and one line of help. */
export interface CommandSpec {
  /** `[min, max, name]` of the positional arguments. */
  readonly positionals: readonly [number, number, string];
  readonly flags: readonly FlagName[];
  /** One sentence (the overview shows it; the command's help too). */
  readonly summary: string;
  /** Allowed values of `--format`, when the command takes it. */
  readonly formats?: readonly string[];
}

export const COMMAND_SPECS: Record<CommandName, CommandSpec> = {
  index: {
    positionals: [0, 0, ""],
    flags: ["watch"],
    summary: "Build (or refresh) the index of the mod, write the snapshot and print a summary.",
  },
  status: { positionals: [0, 0, ""], flags: [], summary: "Project, SDK, schema, game and index state." },
  find: {
    positionals: [1, 1, "ID"],
    flags: ["type"],
    summary: "Where an asset is defined (every definition, project first). Exit 1 when not found.",
  },
  refs: {
    positionals: [1, 1, "ID"],
    flags: ["type", "kind", "limit", "cursor"],
    summary: "Who references the asset (reverse references), with totals by kind.",
  },
  uses: {
    positionals: [1, 1, "ID"],
    flags: ["type", "depth", "target-type", "max-edges"],
    summary: "What the asset references, with provenance (forward references; inheritFrom followed).",
  },
  list: {
    positionals: [1, 1, "TYPE"],
    flags: ["prefix", "limit", "cursor"],
    summary: "The ids of an asset type, paged.",
  },
  define: {
    positionals: [1, 1, "NAME"],
    flags: ["limit", "cursor"],
    summary: "Where a $DEFINE is declared (every declaration, with its state) and used (paged).",
  },
  include: {
    positionals: [1, 1, "SOURCE"],
    flags: ["from"],
    summary: "How an Include source resolves: search paths tried, the hit, case fix-ups.",
  },
  file: {
    positionals: [1, 1, "PATH"],
    flags: ["limit", "cursor"],
    summary:
      "Is the file compiled, referenced or not included? Its include chain from the entry point, streams, include edges (paged).",
  },
  files: {
    positionals: [0, 0, ""],
    flags: ["state", "prefix", "limit", "cursor"],
    summary: "The project's files by state, paged (--state not-included: the files nothing includes).",
  },
  unreferenced: {
    positionals: [0, 0, ""],
    flags: ["type", "include-overrides", "limit", "cursor"],
    summary: "Project assets nothing references (only types designed to be referenced).",
  },
  check: {
    positionals: [0, Infinity, "PATH"],
    flags: ["format", "limit", "cursor"],
    formats: ["text", "json", "sarif"],
    summary:
      "Diagnostics; exit status 1 when errors are found. Per file at most 200 of one code and 1000 in all are listed; the rest are counted.",
  },
  strings: {
    positionals: [1, Infinity, "TEXT"],
    flags: ["limit"],
    summary: "Search the string table: display text → string key → assets using it.",
  },
  export: {
    positionals: [0, 0, ""],
    flags: ["out", "format"],
    formats: ["msgpack", "json"],
    summary: "Write the public snapshot format.",
  },
  mcp: {
    positionals: [0, 0, ""],
    flags: [],
    summary:
      "Serve the index to AI agents over MCP on stdio (also: ra3 --mcp). Started on a folder holding several mods, it answers for each (tool argument project).",
  },
  "install-skill": {
    positionals: [0, 0, ""],
    flags: ["target", "uninstall", "sync"],
    summary: "Install the ra3-mod-xml Agent Skill.",
  },
  setup: {
    positionals: [0, 0, ""],
    flags: ["client", "name", "scope", "yes", "dry-run", "print"],
    summary: "Zero-install agent setup: stable binary, client configs, skill, index, verification.",
  },
  doctor: {
    positionals: [0, 0, ""],
    flags: [],
    summary:
      "Check every configured client (file, entry, a live spawn of its command), the skill copies and the snapshot; exit 0 only when all is well.",
  },
  uninstall: {
    positionals: [0, 0, ""],
    flags: ["yes", "all"],
    summary:
      "Revert what setup and install-skill wrote (from the install receipt); --all also deletes every snapshot and cache in the home.",
  },
  help: { positionals: [0, 1, "COMMAND"], flags: [], summary: "The overview, or one command's help." },
  version: { positionals: [0, 0, ""], flags: [], summary: "The version." },
};

export interface CliConfig {
  readonly command: CommandName;
  readonly positionals: readonly string[];
  readonly project: string | null;
  readonly sdk: string | null;
  readonly home: string | null;
  readonly schema: string | null;
  /** `--entry FILE` (repeatable): the entry points, instead of the detected ones. */
  readonly entries: readonly string[];
  readonly json: boolean;
  readonly progress: boolean;
  readonly quiet: boolean;
  readonly type: string | null;
  readonly prefix: string | null;
  readonly limit: number | null;
  readonly cursor: string | null;
  readonly depth: number | null;
  readonly targetTypes: readonly string[];
  readonly maxEdges: number | null;
  /** `ra3 refs --kind` (repeatable): only references of these kinds. */
  readonly kinds: readonly string[];
  /** `ra3 unreferenced --include-overrides`. */
  readonly includeOverrides: boolean;
  readonly from: string | null;
  readonly format: string | null;
  /** `ra3 files --state`: compiled, referenced or not-included. */
  readonly state: string | null;
  readonly out: string | null;
  readonly watch: boolean;
  readonly clients: readonly string[];
  /** `--name`: the server entry name setup writes (null: the default, `ra3`). */
  readonly name: string | null;
  readonly scope: "user" | "project";
  readonly targets: readonly string[];
  readonly yes: boolean;
  readonly dryRun: boolean;
  readonly uninstall: boolean;
  readonly sync: boolean;
  readonly print: boolean;
  readonly all: boolean;
}

/** The values `--state` accepts. */
const FILE_STATES: readonly string[] = ["compiled", "referenced", "not-included"];

export interface UsageError {
  readonly usageError: string;
}

/** The `parseArgs` option table: every flag, plus `--<command>` for every command (`ra3 --mcp`). */
const OPTIONS = {
  ...Object.fromEntries(
    Object.entries(FLAGS).map((
      [name, f],
    ) => [
      name,
      {
        type: f.type,
        ...("short" in f ? { short: f.short } : {}),
        ...("multiple" in f ? { multiple: f.multiple } : {}),
      },
    ]),
  ),
  ...Object.fromEntries(COMMANDS.filter((c) => !(c in FLAGS)).map((c) => [c, { type: "boolean" }])),
};

function isCommand(s: string): s is CommandName {
  return (COMMANDS as readonly string[]).includes(s);
}

function positiveInt(raw: string | undefined, flag: string, max: number): number | null | UsageError {
  if (raw === undefined) return null;
  if (!/^\d+$/.test(raw.trim())) return { usageError: `--${flag} must be a whole number, got "${raw}"` };
  const n = Number(raw);
  if (n < 1 || n > max) return { usageError: `--${flag} must be between 1 and ${max}, got ${n}` };
  return n;
}

/** Entry names the clients accept as keys (TOML bare keys, JSON keys): letters, digits, `-`, `_`. */
const ENTRY_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Parses argv (without the executable and script) into a config, or a usage error.
 * @example parseCli(["find", "Tank", "--json"]) // { command: "find", positionals: ["Tank"], json: true, … }
 */
export function parseCli(argv: readonly string[]): CliConfig | UsageError {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS as never, allowPositionals: true, strict: true });
  } catch (e) {
    const msg = (e as Error).message.replace(/\. To specify a positional argument.*$/s, "");
    return { usageError: `${msg.replace(/^Unknown option/, "unknown option")}; see ra3 --help` };
  }
  const values = parsed.values as Record<string, unknown>;
  const positionals = [...parsed.positionals];

  // `--uninstall` is both the alias of `ra3 uninstall` and a flag of `ra3 install-skill`; `--help` and
  // `--version` are flags of every command, not commands given twice.
  const skillInstall = positionals[0] === "install-skill" || values["install-skill"] === true;
  const flagCommands = COMMANDS.filter((c) =>
    values[c] === true && c !== "help" && c !== "version" && !(c === "uninstall" && skillInstall)
  );
  let command: CommandName | null = null;
  if (flagCommands.length > 1) return { usageError: `only one command at a time, got --${flagCommands.join(" --")}` };
  if (flagCommands.length === 1) command = flagCommands[0];
  if (positionals.length > 0 && isCommand(positionals[0])) {
    if (command && command !== positionals[0]) {
      return { usageError: `two commands given: ${command} and ${positionals[0]}` };
    }
    command = positionals.shift() as CommandName;
  }
  if (values.help) {
    positionals.length = 0;
    if (command) positionals.push(command);
    command = "help";
  } else if (values.version) {
    command = "version";
  }
  if (!command) {
    if (positionals.length > 0) return { usageError: `unknown command "${positionals[0]}"; see ra3 --help` };
    command = "help";
  }
  const spec = COMMAND_SPECS[command];

  const allowed = new Set<string>([...GLOBAL_FLAGS, ...spec.flags, ...COMMANDS]);
  for (const key of Object.keys(values)) {
    if (values[key] === undefined || allowed.has(key)) continue;
    return { usageError: `--${key} does not apply to "ra3 ${command}"; see ra3 help ${command}` };
  }
  const [min, max, name] = spec.positionals;
  if (positionals.length < min) return { usageError: `ra3 ${command} needs ${name}; see ra3 help ${command}` };
  if (positionals.length > max) {
    return {
      usageError: `ra3 ${command} takes ${max === 0 ? "no arguments" : `at most ${max} argument`}, got "${
        positionals.join(" ")
      }"`,
    };
  }

  const limit = positiveInt(values.limit as string | undefined, "limit", 10_000);
  if (limit && typeof limit === "object") return limit;
  const depth = positiveInt(values.depth as string | undefined, "depth", 3);
  if (depth && typeof depth === "object") return depth;
  const maxEdges = positiveInt(values["max-edges"] as string | undefined, "max-edges", 100_000);
  if (maxEdges && typeof maxEdges === "object") return maxEdges;
  const format = (values.format as string | undefined) ?? null;
  if (format !== null && spec.formats && !spec.formats.includes(format)) {
    return { usageError: `--format must be one of ${spec.formats.join(", ")}, got "${format}"` };
  }
  const state = (values.state as string | undefined) ?? null;
  if (state !== null && !FILE_STATES.includes(state)) {
    return { usageError: `--state must be one of ${FILE_STATES.join(", ")}, got "${state}"` };
  }
  const entries = ((values.entry as string[] | undefined) ?? []).map((e) => fromFileUri(e) ?? e);
  if (entries.some((e) => e.trim() === "")) return { usageError: "--entry needs a file" };
  const str = (k: FlagName): string | null => {
    const v = values[k] as string | undefined;
    if (v === undefined) return null;
    const f: FlagSpec = FLAGS[k];
    return f.path ? (fromFileUri(v) ?? v) : v;
  };
  // (`--sdk ""` is allowed: it forces project-only mode.)
  for (const k of ["project", "home", "schema", "type", "prefix", "from", "out", "name"] as const) {
    const v = str(k);
    if (v !== null && v.trim() === "") return { usageError: `--${k} needs a value` };
  }
  const entryName = str("name");
  if (entryName !== null && !ENTRY_NAME.test(entryName)) {
    return { usageError: `--name takes letters, digits, "-" and "_" (at most 64), got "${entryName}"` };
  }
  const scope = str("scope") ?? "user";
  if (scope !== "user" && scope !== "project") {
    return { usageError: `--scope must be user or project, got "${scope}"` };
  }

  return {
    command,
    positionals,
    project: str("project"),
    sdk: str("sdk"),
    home: str("home"),
    schema: str("schema"),
    entries,
    json: values.json === true,
    progress: values["no-progress"] !== true,
    quiet: values.quiet === true,
    type: str("type"),
    prefix: str("prefix"),
    limit: limit as number | null,
    cursor: str("cursor"),
    depth: depth as number | null,
    targetTypes: (values["target-type"] as string[] | undefined) ?? [],
    maxEdges: maxEdges as number | null,
    kinds: (values.kind as string[] | undefined) ?? [],
    includeOverrides: values["include-overrides"] === true,
    from: str("from"),
    format,
    state,
    out: str("out"),
    watch: values.watch === true,
    clients: (values.client as string[] | undefined) ?? [],
    name: entryName,
    scope,
    targets: (values.target as string[] | undefined) ?? [],
    yes: values.yes === true,
    dryRun: values["dry-run"] === true,
    uninstall: skillInstall && values.uninstall === true,
    sync: values.sync === true,
    print: values.print === true,
    all: values.all === true,
  };
}

/** True when `r` is a usage error. */
export function isUsageError(r: CliConfig | UsageError): r is UsageError {
  return (r as UsageError).usageError !== undefined;
}

/**
 * True when the command line runs until stopped: the MCP server, or `--watch`. Such a run writes through
 * Node's streams, which queue what a reader does not take (an MCP client that never reads stderr), where a
 * write in place to a full pipe would stop the server (`fd-writer.ts`). A usage error answers and exits.
 */
export function runsUntilStopped(argv: readonly string[]): boolean {
  const cfg = parseCli(argv);
  return !isUsageError(cfg) && (cfg.command === "mcp" || cfg.watch);
}
