/**
 * Started from Explorer by a double-click, `ra3.exe` gets no arguments and a console window of its own
 * that closes the moment it exits: printing the usage there shows nothing. So in exactly that case (no
 * arguments, Windows, stdin and stdout a console, and no other process on the console, i.e. no shell
 * that started us) ra3 runs the interactive `ra3 setup` and waits for Enter before the window closes.
 * The console facts come through {@link ConsoleHost}, so tests inject them.
 */
import { createInterface } from "node:readline";
import type { CliIo } from "./io.ts";

/** What ra3 needs to know about the console it was started in. */
export interface ConsoleHost {
  /** `process.platform`. */
  readonly platform: string;
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  /** How many processes are attached to this console (Windows), or null when it cannot be told. */
  consoleProcessCount(): Promise<number | null>;
  /** Prints `prompt` and resolves when Enter is pressed or the input ends. */
  waitForEnter(prompt: string): Promise<void>;
}

/**
 * True when the process was started by a double-click: no arguments, Windows, an interactive console
 * and ra3 alone on it (a shell would be attached too, so a count of 1 means nobody typed the command).
 */
export async function startedByDoubleClick(argv: readonly string[], host: ConsoleHost): Promise<boolean> {
  if (argv.length !== 0 || host.platform !== "win32" || !host.stdinIsTTY || !host.stdoutIsTTY) return false;
  return (await host.consoleProcessCount()) === 1;
}

/** Runs the interactive setup through `run(["setup"])`, then waits for Enter; returns setup's exit status. */
export async function runDoubleClick(
  io: CliIo,
  host: ConsoleHost,
  run: (argv: readonly string[], io: CliIo) => Promise<number>,
): Promise<number> {
  io.out("ra3: setting up ra3 for your AI agents (the same as typing `ra3 setup` in a terminal).\n\n");
  let code: number;
  try {
    code = await run(["setup"], io);
  } catch (e) {
    io.err(`ra3: setup stopped: ${(e as Error).message}\n`);
    code = 1;
  }
  const closing = code === 0
    ? "\nra3 is set up. Press Enter to close this window."
    : "\nra3 setup did not finish: see above. Press Enter to close this window.";
  await host.waitForEnter(closing);
  return code;
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

/** The real process's console. */
export function processConsoleHost(): ConsoleHost {
  return {
    platform: process.platform,
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    consoleProcessCount: windowsConsoleProcessCount,
    waitForEnter: (prompt) =>
      new Promise((resolve) => {
        const rl = createInterface({ input: process.stdin, output: process.stdout });
        rl.question(prompt, () => rl.close());
        rl.once("close", () => resolve());
      }),
  };
}
