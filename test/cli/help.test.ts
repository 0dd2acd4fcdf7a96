// `ra3 <command> --help` for every command, and help generated from the parser's own table: every flag
// the help names parses for that command, and every flag the parser accepts is in the help.
import { describe, expect, test } from "bun:test";
import { COMMAND_SPECS, COMMANDS, FLAGS, GLOBAL_FLAGS, isUsageError, parseCli } from "../../src/cli/args.ts";
import { helpText, usageLine } from "../../src/cli/help.ts";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { fromFileUri, toFileUri } from "../../src/project/paths.ts";
import { posix, win32 } from "node:path";

/** Positional arguments that satisfy a command's minimum. */
function minimalArgs(command: (typeof COMMANDS)[number]): string[] {
  const [min] = COMMAND_SPECS[command].positionals;
  return Array.from({ length: min }, (_, i) => `arg${i}`);
}

/** A value a flag accepts. */
function valueFor(command: (typeof COMMANDS)[number], flag: keyof typeof FLAGS): string[] {
  const f = FLAGS[flag];
  if (f.type === "boolean") return [];
  if (flag === "format") return [COMMAND_SPECS[command].formats![0]];
  if (flag === "scope") return ["user"];
  if (flag === "state") return ["not-included"];
  if (["limit", "depth", "max-edges"].includes(flag)) return ["2"];
  return ["x"];
}

/** The `--flag` names a help text mentions (command aliases such as `--mcp` aside). */
function flagsIn(text: string): string[] {
  const names = [...text.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => m[1]);
  return [...new Set(names)].filter((n) => n in FLAGS || !(COMMANDS as readonly string[]).includes(n)).sort();
}

describe("ra3 <command> --help", () => {
  for (const command of COMMANDS) {
    test(`${command} --help prints that command's help and exits 0`, async () => {
      const io = memoryIo("/tmp", {});
      const code = await run([command, "--help"], io);
      expect(code).toBe(0);
      expect(io.stderr).toBe("");
      expect(io.stdout).toBe(helpText(command));
      expect(io.stdout.startsWith(`usage: ${usageLine(command)}\n`)).toBe(true);
      // The --<command> alias and -h work too (for help and version the alias is the global flag itself).
      if (command !== "help" && command !== "version") {
        const alias = memoryIo("/tmp", {});
        expect(await run([`--${command}`, "-h"], alias)).toBe(0);
        expect(alias.stdout).toBe(helpText(command));
      }
    });
  }

  test("the setup --help of the issue (it used to exit 2, 'two commands given')", async () => {
    const io = memoryIo("/tmp", {});
    expect(await run(["setup", "--help"], io)).toBe(0);
    expect(io.stdout).toContain("--client NAME...");
    expect(io.stdout).toContain("--dry-run");
  });
});

describe("help and parser share one table", () => {
  for (const command of COMMANDS) {
    test(`${command}: the help names exactly the flags the parser accepts, and each one parses`, () => {
      const spec = COMMAND_SPECS[command];
      const accepted = [...new Set([...spec.flags, ...GLOBAL_FLAGS])].sort();
      expect(flagsIn(helpText(command))).toEqual(accepted);
      for (const flag of spec.flags) {
        const parsed = parseCli([command, ...minimalArgs(command), `--${flag}`, ...valueFor(command, flag)]);
        expect(isUsageError(parsed) ? parsed.usageError : "ok").toBe("ok");
      }
      // A flag of another command is refused, naming this command.
      const foreign = (Object.keys(FLAGS) as (keyof typeof FLAGS)[]).find((f) =>
        !accepted.includes(f) && !(COMMANDS as readonly string[]).includes(f)
      );
      if (foreign) {
        const parsed = parseCli([command, ...minimalArgs(command), `--${foreign}`, ...valueFor(command, foreign)]);
        expect(isUsageError(parsed) && parsed.usageError).toBe(
          `--${foreign} does not apply to "ra3 ${command}"; see ra3 help ${command}`,
        );
      }
    });
  }

  test("the overview lists every command with its generated usage", () => {
    const overview = helpText();
    for (const command of COMMANDS) {
      if (command === "help" || command === "version") continue;
      expect(overview).toContain(`  ${usageLine(command).replace(/^ra3 /, "")}`);
    }
  });

  test("a flag added to a command's table appears in its help (the help is not written by hand)", () => {
    expect(usageLine("refs")).toBe("ra3 refs ID [--type T] [--kind K...] [--limit N] [--cursor C]");
    expect(usageLine("check")).toBe("ra3 check [PATH]... [--format text|json|sarif] [--limit N] [--cursor C]");
    expect(usageLine("strings")).toBe("ra3 strings TEXT... [--limit N]");
  });
});

describe("path flags take file: URIs (setup writes one when a client would rewrite $ in a path)", () => {
  test("--project, --sdk, --home and --schema are decoded; other flags are not", () => {
    const parsed = parseCli([
      "mcp",
      "--project",
      "file:///home/ann/mods/%24Money%20Mod",
      "--home",
      "file:///home/ann/.ra3modxml",
      "--sdk",
      "file:///opt/sdk%7Benv%3AX%7D",
    ]);
    expect(isUsageError(parsed)).toBe(false);
    if (!isUsageError(parsed)) {
      expect([parsed.project, parsed.home, parsed.sdk]).toEqual([
        "/home/ann/mods/$Money Mod",
        "/home/ann/.ra3modxml",
        "/opt/sdk{env:X}",
      ]);
    }
    const find = parseCli(["find", "file:///x", "--type", "file:///y"]);
    expect(!isUsageError(find) && [find.positionals[0], find.type]).toEqual(["file:///x", "file:///y"]);
  });
});

test("toFileUri and fromFileUri round-trip Windows and POSIX paths, leaving no $, { or space", () => {
  for (
    const [p, flavour] of [
      ["D:\\Mods\\$Money Mod", win32],
      ["/home/ann/mods/a${HOME}b {env:X} 100%", posix],
      ["C:\\Users\\Ünïcode\\mods", win32],
    ] as const
  ) {
    const uri = toFileUri(p);
    expect(uri).not.toMatch(/[$ {}]/);
    expect(fromFileUri(uri, flavour)).toBe(p);
  }
  expect(toFileUri("D:\\Mods\\$Money")).toBe("file:///D:/Mods/%24Money");
  expect(fromFileUri("not a uri")).toBeNull();
});
