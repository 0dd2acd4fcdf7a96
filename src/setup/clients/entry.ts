/**
 * The one server entry ra3 registers with every client, and its plain rendering for clients ra3 does
 * not know. The project is passed as an argument because clients ignore or vary `cwd` (Claude Desktop
 * starts servers in `/`, Claude Code ignores `cwd` in `.mcp.json`); the command is the absolute path of
 * the installed binary, never `npx` (which needs a `cmd /c` wrapper on Windows and breaks on quoting).
 */
import * as nodePath from "node:path";
import { DEFAULT_HOME_NAME } from "../../project/home.ts";
import { fromFileUri, isAbsoluteAnyOs, type PathFlavour, samePath, toFileUri } from "../../project/paths.ts";
import type { Platform } from "../platform.ts";
import type { ArgExpansion } from "./expansion.ts";
import type { ServerEntry } from "./types.ts";

/** The name of our server in every client config. */
export const SERVER_NAME = "ra3";

export interface EntryInputs {
  /** Absolute path of the stable installed binary (`<home>/bin/ra3[.exe]`). */
  readonly binaryPath: string;
  /** Absolute path of the mod project. */
  readonly projectDir: string;
  /** Absolute path of the SDK, when one is configured. */
  readonly sdkDir?: string | null;
  /** Absolute paths of the build's entry points given with `--entry`, when any. */
  readonly entries?: readonly string[];
}

/**
 * The entry `{ name: "ra3", command: <binary>, args: ["mcp", "--project", <dir>, ("--sdk", <dir>), ("--entry", <file>)…] }`.
 * Throws when a path is relative: callers resolve paths first, so that is a bug.
 * @example ra3ServerEntry({ binaryPath: "/home/a/.ra3modxml/bin/ra3", projectDir: "/mods/x" }).args // ["mcp", "--project", "/mods/x"]
 */
export function ra3ServerEntry(inputs: EntryInputs): ServerEntry {
  for (const p of [inputs.binaryPath, inputs.projectDir, inputs.sdkDir ?? "/", ...(inputs.entries ?? [])]) {
    if (!isAbsoluteAnyOs(p)) throw new Error(`server entry paths must be absolute, got ${JSON.stringify(p)}`);
  }
  const base = nodePath.win32.basename(inputs.binaryPath).toLowerCase();
  if (base === "npx" || base === "npx.cmd" || base === "cmd" || base === "cmd.exe") {
    throw new Error(`the server command must be the ra3 binary itself, got ${inputs.binaryPath}`);
  }
  const args = ["mcp", "--project", inputs.projectDir];
  if (inputs.sdkDir) args.push("--sdk", inputs.sdkDir);
  for (const e of inputs.entries ?? []) args.push("--entry", e);
  return { name: SERVER_NAME, command: inputs.binaryPath, args };
}

/**
 * The entry as the plain JSON most clients accept (`{"mcpServers": {"ra3": {"command", "args"}}}`), for
 * printing to users of clients ra3 does not configure itself. Ends with a newline.
 */
export function printEntry(entry: ServerEntry): string {
  return JSON.stringify({ mcpServers: { [entry.name]: { command: entry.command, args: entry.args } } }, null, 2) + "\n";
}

/**
 * The `--home` arguments an entry needs: none when `home` is the default `<user home>/.ra3modxml`
 * (clients such as Codex pass servers no `RA3_HOME`), else `["--home", home]`.
 */
export function homeArgs(platform: Platform, home: string): string[] {
  return samePath(home, platform.pathFlavour.join(platform.home, DEFAULT_HOME_NAME)) ? [] : ["--home", home];
}

/**
 * The entry setup writes: the stable binary, `mcp --project <dir> [--sdk <dir>] [--entry <file>]… [--home <dir>]`, named
 * `name` (default `ra3`). A path the client would rewrite (`expansion`: `$VAR`, `${VAR}`, `{env:X}`) is
 * written as a `file:` URI, which every path flag accepts, so the server receives it unchanged.
 * @example serverEntryFor(platform, "/home/u/.ra3modxml", "/home/u/.ra3modxml/bin/ra3", { projectDir: "/mods/x", sdkDir: null }).args
 *          // ["mcp", "--project", "/mods/x"]
 */
export function serverEntryFor(
  platform: Platform,
  home: string,
  binaryPath: string,
  project: { readonly projectDir: string; readonly sdkDir: string | null; readonly entries?: readonly string[] },
  options: { readonly name?: string; readonly expansion?: ArgExpansion | null } = {},
): ServerEntry {
  const base = ra3ServerEntry({ binaryPath, ...project });
  const safe = (arg: string) => (options.expansion?.rewrites(arg) ? toFileUri(arg) : arg);
  const args = [...base.args, ...homeArgs(platform, home)].map((a, i, all) =>
    i > 0 && all[i - 1].startsWith("--") ? safe(a) : a
  );
  return { name: options.name ?? base.name, command: base.command, args };
}

/**
 * The command and arguments of a stored entry, in any dialect's shape (`{command, args}`, opencode's
 * one `command` array, Cline CLI's `{transport: {command, args}}`), or null when it has none.
 * @example entryCommand({ type: "local", command: ["/b/ra3", "mcp"], enabled: true }) // { command: "/b/ra3", args: ["mcp"] }
 */
export function entryCommand(value: unknown): { command: string; args: string[] } | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  if (Array.isArray(o.command)) {
    const [command, ...args] = strings(o.command);
    return command === undefined ? null : { command, args };
  }
  if (typeof o.command === "string") return { command: o.command, args: strings(o.args) };
  if (typeof o.transport === "object" && o.transport !== null) return entryCommand(o.transport);
  return null;
}

/** The value after `flag` in `args` (a `file:` URI decoded), or null. */
export function argValue(args: readonly string[], flag: string, flavour?: PathFlavour): string | null {
  const i = args.indexOf(flag);
  if (i < 0 || i + 1 >= args.length) return null;
  return fromFileUri(args[i + 1], flavour) ?? args[i + 1];
}
