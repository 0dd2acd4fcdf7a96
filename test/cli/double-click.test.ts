// The double-click path of ra3.exe through an injected console: no arguments on Windows in a console of
// its own runs the interactive setup and waits for Enter; every other start runs the command line as typed.
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  type ConsoleHost,
  modFolderAt,
  runDoubleClick,
  startedByDoubleClick,
  unquotePath,
} from "../../src/cli/double-click.ts";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

/** A console: Windows, interactive, ra3 alone on it, unless told otherwise; records what happened. */
function host(
  over: Partial<Omit<ConsoleHost, "consoleProcessCount" | "ask">> & { processes?: number | null; typed?: string[] } =
    {},
) {
  const events: string[] = [];
  const typed = [...(over.typed ?? [])];
  const h: ConsoleHost & { events: string[] } = {
    platform: over.platform ?? "win32",
    stdinIsTTY: over.stdinIsTTY ?? true,
    stdoutIsTTY: over.stdoutIsTTY ?? true,
    consoleProcessCount: async () => (over.processes === undefined ? 1 : over.processes),
    ask: async (prompt) => {
      events.push(`ask: ${prompt.trim()}`);
      return typed.length ? typed.shift()! : "";
    },
    events,
  };
  return h;
}

describe("startedByDoubleClick", () => {
  test("no arguments, Windows, an interactive console of its own: yes", async () => {
    expect(await startedByDoubleClick([], host())).toBe(true);
  });

  test("any argument, another OS, a redirected stream, a shell on the console or an unknown count: no", async () => {
    expect(await startedByDoubleClick(["setup"], host())).toBe(false);
    expect(await startedByDoubleClick(["--help"], host())).toBe(false);
    expect(await startedByDoubleClick([], host({ platform: "linux" }))).toBe(false);
    expect(await startedByDoubleClick([], host({ platform: "darwin" }))).toBe(false);
    expect(await startedByDoubleClick([], host({ stdinIsTTY: false }))).toBe(false);
    expect(await startedByDoubleClick([], host({ stdoutIsTTY: false }))).toBe(false);
    // cmd.exe or PowerShell shares the console: two processes.
    expect(await startedByDoubleClick([], host({ processes: 2 }))).toBe(false);
    // Deno, or a console API that failed: never guess.
    expect(await startedByDoubleClick([], host({ processes: null }))).toBe(false);
  });
});

describe("runDoubleClick", () => {
  test("runs `setup` (interactive: no --yes) and waits for Enter after it finished", async () => {
    const h = host();
    const io = memoryIo("C:\\Users\\me\\Downloads");
    const code = await runDoubleClick(io, h, async (argv) => {
      h.events.push(`run: ${argv.join(" ")}`);
      return 0;
    }, () => true);
    expect(code).toBe(0);
    expect(h.events).toEqual(["run: setup", "ask: ra3 is set up. Press Enter to close this window."]);
    expect(io.stdout).toContain("the same as typing `ra3 setup` in a terminal");
  });

  test("a failed or crashed setup still waits for Enter, so the window shows why", async () => {
    const failed = host();
    expect(await runDoubleClick(memoryIo("/"), failed, async () => 3, () => true)).toBe(3);
    expect(failed.events).toEqual(["ask: ra3 setup did not finish: see above. Press Enter to close this window."]);
    const crashed = host();
    const io = memoryIo("/");
    expect(await runDoubleClick(io, crashed, async () => Promise.reject(new Error("disk on fire")), () => true)).toBe(
      1,
    );
    expect(io.stderr).toBe("ra3: setup stopped: disk on fire\n");
    expect(crashed.events).toEqual(["ask: ra3 setup did not finish: see above. Press Enter to close this window."]);
  });

  test("outside a mod it asks for the mod folder first; a dragged-in quoted path is unquoted", async () => {
    const runs: string[][] = [];
    const fake = async (argv: readonly string[]) => (runs.push([...argv]), 0);
    const dragged = host({ typed: ['"C:\\Mods\\My Mod"\t', ""] });
    await runDoubleClick(memoryIo("C:\\Users\\me\\Downloads"), dragged, fake, () => false);
    expect(runs.at(-1)).toEqual(["setup", "--project", "C:\\Mods\\My Mod"]);
    expect(dragged.events[0]).toBe(
      "ask: Which mod? Drag its folder into this window (or type its path) and press Enter:",
    );
    // Nothing typed (or the input ended): setup runs as typed and explains that it found no mod.
    await runDoubleClick(memoryIo("/"), host({ typed: ["   "] }), fake, () => false);
    expect(runs.at(-1)).toEqual(["setup"]);
    expect(unquotePath("  D:\\Mods\\X  ")).toBe("D:\\Mods\\X");
  });

  test("modFolderAt: inside the sample mod (any depth) yes, its parent folder no", () => {
    const sample = join(import.meta.dirname, "..", "..", "examples", "sample-mod");
    expect([modFolderAt(sample), modFolderAt(join(sample, "Data", "Includes")), modFolderAt(join(sample, ".."))])
      .toEqual([
        true,
        true,
        false,
      ]);
  });

  test("with the real dispatcher: the same run as `ra3 setup` typed without a terminal (plans only, writes nothing)", async () => {
    const home = TMP.make("ra3-dblclick-");
    const env = { RA3_HOME: join(home, "state"), HOME: home, USERPROFILE: home, RA3_SDK: "" };
    const cwd = join(import.meta.dirname, "..", "..", "examples", "sample-mod");
    const typed = memoryIo(cwd, env);
    const typedCode = await run(["setup"], typed);
    const h = host();
    const io = memoryIo(cwd, env);
    const code = await runDoubleClick(io, h, run);
    expect(io.stdout).toContain(typed.stdout);
    expect(io.stdout).toStartWith("ra3: setting up ra3 for your AI agents");
    expect(code).toBe(typedCode);
    expect(h.events.length).toBe(1);
    expect(readdirSync(home)).toEqual([]);
  });
});
