/**
 * Command-line parsing: argv → one typed, validated {@link CliConfig}. Nothing else in the program
 * looks at raw argv. Usage problems come back as a {@link UsageError} value (exit status 2).
 */
import { parseArgs } from "node:util";

const COMMANDS = [
  "index",
  "status",
  "find",
  "refs",
  "uses",
  "list",
  "define",
  "include",
  "file",
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

export interface CliConfig {
  readonly command: CommandName;
  readonly positionals: readonly string[];
  readonly project: string | null;
  readonly sdk: string | null;
  readonly home: string | null;
  readonly schema: string | null;
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
  readonly from: string | null;
  readonly format: string | null;
  readonly out: string | null;
  readonly watch: boolean;
  readonly clients: readonly string[];
  readonly targets: readonly string[];
  readonly yes: boolean;
  readonly dryRun: boolean;
  readonly uninstall: boolean;
  readonly sync: boolean;
  readonly print: boolean;
  readonly all: boolean;
}

export interface UsageError {
  readonly usageError: string;
}

const OPTIONS = {
  project: { type: "string" },
  sdk: { type: "string" },
  home: { type: "string" },
  schema: { type: "string" },
  json: { type: "boolean" },
  "no-progress": { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
  type: { type: "string" },
  prefix: { type: "string" },
  limit: { type: "string" },
  cursor: { type: "string" },
  depth: { type: "string" },
  "target-type": { type: "string", multiple: true },
  "max-edges": { type: "string" },
  from: { type: "string" },
  format: { type: "string" },
  out: { type: "string" },
  watch: { type: "boolean" },
  client: { type: "string", multiple: true },
  target: { type: "string", multiple: true },
  yes: { type: "boolean", short: "y" },
  "dry-run": { type: "boolean" },
  uninstall: { type: "boolean" },
  sync: { type: "boolean" },
  print: { type: "boolean" },
  all: { type: "boolean" },
  // `ra3 --mcp` etc.: every command is also accepted as a flag.
  ...Object.fromEntries(COMMANDS.filter((c) => c !== "help" && c !== "version").map((c) => [c, { type: "boolean" }])),
} as const;

const GLOBAL = new Set(["project", "sdk", "home", "schema", "json", "no-progress", "quiet", "help", "version"]);

/** Flags each command accepts besides the global ones. */
const COMMAND_FLAGS: Record<CommandName, readonly string[]> = {
  index: ["watch"],
  status: [],
  find: ["type"],
  refs: ["type", "limit", "cursor"],
  uses: ["type", "depth", "target-type", "max-edges"],
  list: ["prefix", "limit", "cursor"],
  define: [],
  include: ["from"],
  file: ["limit", "cursor"],
  unreferenced: ["type", "limit", "cursor"],
  check: ["format", "limit", "cursor"],
  strings: ["limit"],
  export: ["out", "format"],
  mcp: [],
  "install-skill": ["target", "uninstall", "sync"],
  setup: ["client", "yes", "dry-run", "print"],
  doctor: [],
  uninstall: ["yes", "all"],
  help: [],
  version: [],
};

/** Positional arguments each command takes: [min, max, name]. */
const POSITIONALS: Record<CommandName, readonly [number, number, string]> = {
  index: [0, 0, ""],
  status: [0, 0, ""],
  find: [1, 1, "ID"],
  refs: [1, 1, "ID"],
  uses: [1, 1, "ID"],
  list: [1, 1, "TYPE"],
  define: [1, 1, "NAME"],
  include: [1, 1, "SOURCE"],
  file: [1, 1, "PATH"],
  unreferenced: [0, 0, ""],
  check: [0, Infinity, "PATH"],
  strings: [1, Infinity, "TEXT"],
  export: [0, 0, ""],
  mcp: [0, 0, ""],
  "install-skill": [0, 0, ""],
  setup: [0, 0, ""],
  doctor: [0, 0, ""],
  uninstall: [0, 0, ""],
  help: [0, 1, "COMMAND"],
  version: [0, 0, ""],
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

  // `--uninstall` is both the alias of `ra3 uninstall` and a flag of `ra3 install-skill`.
  const skillInstall = positionals[0] === "install-skill" || values["install-skill"] === true;
  const flagCommands = COMMANDS.filter((c) => values[c] === true && !(c === "uninstall" && skillInstall));
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
    if (command && command !== "help") positionals.push(command);
    command = "help";
  } else if (values.version) {
    command = "version";
  }
  if (!command) {
    if (positionals.length > 0) return { usageError: `unknown command "${positionals[0]}"; see ra3 --help` };
    command = "help";
  }

  const allowed = new Set([...GLOBAL, ...COMMAND_FLAGS[command], ...COMMANDS]);
  for (const key of Object.keys(values)) {
    if (values[key] === undefined || allowed.has(key)) continue;
    return { usageError: `--${key} does not apply to "ra3 ${command}"; see ra3 help ${command}` };
  }
  const [min, max, name] = POSITIONALS[command];
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
  if (format !== null) {
    const formats = command === "export" ? ["msgpack", "json"] : ["text", "json", "sarif"];
    if (!formats.includes(format)) {
      return { usageError: `--format must be one of ${formats.join(", ")}, got "${format}"` };
    }
  }
  const str = (k: string): string | null => {
    const v = values[k] as string | undefined;
    return v === undefined ? null : v;
  };
  // (`--sdk ""` is allowed: it forces project-only mode.)
  for (const k of ["project", "home", "schema", "type", "prefix", "from", "out"]) {
    const v = str(k);
    if (v !== null && v.trim() === "") return { usageError: `--${k} needs a value` };
  }

  return {
    command,
    positionals,
    project: str("project"),
    sdk: str("sdk"),
    home: str("home"),
    schema: str("schema"),
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
    from: str("from"),
    format,
    out: str("out"),
    watch: values.watch === true,
    clients: (values.client as string[] | undefined) ?? [],
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
