/**
 * Started from Explorer by a double-click, `ra3.exe` gets no arguments and a console window of its own
 * that closes the moment it exits: printing the usage there shows nothing. So in exactly that case (no
 * arguments, Windows, stdin and stdout a console, and no other process on the console, i.e. no shell
 * that started us) ra3 runs the interactive `ra3 setup` and waits for Enter before the window closes.
 * Started from a folder that is not inside a mod (Downloads, typically) it first asks for the mod folder,
 * which can be dragged into the window. The console facts come through {@link ConsoleHost}, so tests
 * inject them.
 */
import { findProjectRoot } from "../project/detect.ts";
import { NodeDirectoryLister } from "../project/fs-port.ts";
import type { CliIo } from "./io.ts";

/** What ra3 needs to know about the console it was started in. */
export interface ConsoleHost {
  /** `process.platform`. */
  readonly platform: string;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  /** How many processes are attached to this console (Windows), or null when it cannot be told. */
  consoleProcessCount(): Promise<number | null>;
  /** Prints `prompt` and resolves with the line typed (without the newline), or null when the input ends. */
  ask(prompt: string): Promise<string | null>;
}

/** A dragged-in path comes quoted when it has spaces: `"C:\Mods\My Mod"` → `C:\Mods\My Mod`. */
export function unquotePath(typed: string): string {
  const t = typed.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).trim() : t;
}

/**
 * True when the process was started by a double-click: no arguments, Windows, an interactive console
 * and ra3 alone on it (a shell would be attached too, so a count of 1 means nobody typed the command).
 */
export async function startedByDoubleClick(argv: readonly string[], host: ConsoleHost): Promise<boolean> {
  if (argv.length !== 0 || host.platform !== "win32" || !host.stdinIsTTY || !host.stdoutIsTTY) return false;
  return (await host.consoleProcessCount()) === 1;
}

/**
 * Runs the interactive setup through `run`, asking first for the mod folder when `hasMod(cwd)` says the
 * working folder is not inside a mod; then waits for Enter. Returns setup's exit status.
 */
export async function runDoubleClick(
  io: CliIo,
  host: ConsoleHost,
  run: (argv: readonly string[], io: CliIo) => Promise<number>,
  hasMod: (dir: string) => boolean = modFolderAt,
): Promise<number> {
  io.out("ra3: setting up ra3 for your AI agents (the same as typing `ra3 setup` in a terminal).\n\n");
  const argv = ["setup"];
  if (!hasMod(io.cwd)) {
    const typed = await host.ask("Which mod? Drag its folder into this window (or type its path) and press Enter: ");
    const dir = unquotePath(typed ?? "");
    if (dir !== "") argv.push("--project", dir);
  }
  let code: number;
  try {
    code = await run(argv, io);
  } catch (e) {
    io.err(`ra3: setup stopped: ${(e as Error).message}\n`);
    code = 1;
  }
  const closing = code === 0
    ? "\nra3 is set up. Press Enter to close this window."
    : "\nra3 setup did not finish: see above. Press Enter to close this window.";
  await host.ask(closing);
  return code;
}

/** True when `dir` or a folder above it is a mod (Data/Mod.xml, a .babproj, …). */
export function modFolderAt(dir: string): boolean {
  return findProjectRoot(dir, new NodeDirectoryLister()) !== null;
}

/** GetConsoleProcessList through Bun's FFI (only ever called on Windows); null where that is not possible. */
async function windowsConsoleProcessCount(): Promise<number | null> {
  try {
    const ffi = await import("bun:ffi");
    const kernel32 = ffi.dlopen("kernel32.dll", {
      GetConsoleProcessList: { args: [ffi.FFIType.ptr, ffi.FFIType.u32], returns: ffi.FFIType.u32 },
    });
    try {
      const ids = new Uint32Array(8);
      const n = Number(kernel32.symbols.GetConsoleProcessList(ffi.ptr(ids), ids.length));
      return n > 0 ? n : null;
    } finally {
      kernel32.close();
    }
  } catch {
    // Not Bun (Deno runs the source), or no console API: never guess "double-click".
    return null;
  }
}

/**
 * The real process's console. Its facts are read when first asked: `process.stdin` and `process.stdout`
 * cost a process ≈ 7.5 ms to make (see `fd-writer.ts`), and a command line with arguments never asks.
 */
export function processConsoleHost(): ConsoleHost {
  return {
    platform: process.platform,
    get stdinIsTTY() {
      return process.stdin.isTTY === true;
    },
    get stdoutIsTTY() {
      return process.stdout.isTTY === true;
    },
    consoleProcessCount: windowsConsoleProcessCount,
    ask: async (prompt) => {
      const { createInterface } = await import("node:readline");
      return await new Promise((resolve) => {
        const rl = createInterface({ input: process.stdin, output: process.stdout });
        let answer: string | null = null;
        rl.question(prompt, (line) => {
          answer = line;
          rl.close();
        });
        rl.once("close", () => resolve(answer));
      });
    },
  };
}
