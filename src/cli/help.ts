/**
 * Help text, rendered from the parser's own tables (`args.ts`: {@link COMMAND_SPECS} and {@link FLAGS}),
 * so a flag the parser accepts is always in the help and the help never names a flag it refuses.
 */
import { TOOL_VERSION } from "../version.ts";
import { COMMAND_SPECS, type CommandName, type FlagName, FLAGS, type FlagSpec, GLOBAL_FLAGS } from "./args.ts";

function flagUsage(name: FlagName): string {
  const f: FlagSpec = FLAGS[name];
  const value = f.type === "string" ? ` ${f.value ?? "VALUE"}` : "";
  return `--${name}${value}${f.multiple ? "..." : ""}`;
}

/**
 * The one-line usage of a command, e.g. `ra3 refs ID [--type T] [--limit N] [--cursor C]`.
 * @example usageLine("find") // "ra3 find ID [--type T]"
 */
export function usageLine(command: CommandName): string {
  const spec = COMMAND_SPECS[command];
  const [min, max, name] = spec.positionals;
  const parts = [`ra3 ${command}`];
  if (name) {
    const one = min >= 1 ? name : `[${name}]`;
    parts.push(max > 1 ? `${one}...` : one);
  }
  for (const f of spec.flags) {
    const usage = flagUsage(f);
    parts.push(f === "format" && spec.formats ? `[--format ${spec.formats.join("|")}]` : `[${usage}]`);
  }
  return parts.join(" ");
}

function flagLines(names: readonly FlagName[]): string[] {
  const rows = names.map((n) => {
    const f: FlagSpec = FLAGS[n];
    const short = f.short ? `, -${f.short}` : "";
    return [`${flagUsage(n)}${short}`, f.help] as const;
  });
  const width = Math.max(...rows.map(([u]) => u.length));
  return rows.map(([u, h]) => `  ${u.padEnd(width)}  ${h}`);
}

/** The help text for `command`, or the overview when it is absent or not a command. */
export function helpText(command?: string): string {
  if (command && command in COMMAND_SPECS) {
    const name = command as CommandName;
    const spec = COMMAND_SPECS[name];
    const lines = [`usage: ${usageLine(name)}`, "", `  ${spec.summary}`];
    if (spec.flags.length) lines.push("", "flags:", ...flagLines(spec.flags));
    lines.push("", "global flags:", ...flagLines(GLOBAL_FLAGS));
    return lines.join("\n") + "\n";
  }
  const lines = [
    `ra3 ${TOOL_VERSION}: a fast, exact index of a Red Alert 3 mod's XML asset graph, for people and AI agents.`,
    "",
    "usage: ra3 <command> [args] [flags]     (ra3 --<command> works too; ra3 <command> --help for one command)",
    "",
    "commands:",
  ];
  for (const name of Object.keys(COMMAND_SPECS) as CommandName[]) {
    if (name === "help" || name === "version") continue;
    const usage = usageLine(name).replace(/^ra3 /, "");
    const summary = COMMAND_SPECS[name].summary;
    lines.push(usage.length <= 56 ? `  ${usage.padEnd(56)}  ${summary}` : `  ${usage}\n  ${"".padEnd(56)}  ${summary}`);
  }
  lines.push(
    "",
    "global flags:",
    ...flagLines(GLOBAL_FLAGS),
    "",
    "exit status: 0 ok, 1 not found or findings, 2 usage error, 3 environment error (no project, bad SDK)",
  );
  return lines.join("\n") + "\n";
}
