/**
 * The streams a command writes to, and the exit statuses of DESIGN.md. Commands never call
 * `process.exit` or write to `process.stdout` directly, so they run the same in tests.
 */
import { logicalCwd } from "../project/cwd.ts";
import { fdIsTTY, fdWriter } from "./fd-writer.ts";

export const EXIT_OK = 0;
/** Findings (`check`) or a query whose answer is "not found". */
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;
/** No project, unreadable SDK, … */
export const EXIT_ENV = 3;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** stderr is a terminal (progress bars allowed). */
  readonly errIsTTY: boolean;
  readonly cwd: string;
  readonly env: Record<string, string | undefined>;
  /**
   * True when text written to stdout or stderr may still wait in a buffer: a stream was made for one of
   * them (a console, or a pipe that was full: `fd-writer.ts`), and Bun's `writableLength` does not count
   * what its native writer still holds (2 MB written to a pipe nobody read yet: 0). Absent: never
   * (everything is written when `out`/`err` return).
   */
  readonly outputPending?: () => boolean;
}

/**
 * The real process streams. With `inPlace` (a command that answers and exits), pipes and files are written
 * in place and `process.stdout` and `process.stderr` are made only for a console (see `fd-writer.ts`);
 * without it (a run that lasts), everything goes through them. `errIsTTY` is told when first asked.
 */
export function processIo(options: { readonly inPlace: boolean }): CliIo {
  let errIsTTY: boolean | null = null;
  // Whether each stream was made (asking a stream that was not would make it).
  let madeOut = false;
  let madeErr = false;
  const stdout = () => {
    madeOut = true;
    return (chunk: string | Uint8Array) => process.stdout.write(chunk);
  };
  const stderr = () => {
    madeErr = true;
    return (chunk: string | Uint8Array) => process.stderr.write(chunk);
  };
  return {
    out: options.inPlace ? fdWriter(1, stdout) : stdout(),
    err: options.inPlace ? fdWriter(2, stderr) : stderr(),
    get errIsTTY() {
      return errIsTTY ??= options.inPlace
        ? fdIsTTY(2, () => process.stderr.isTTY === true)
        : process.stderr.isTTY === true;
    },
    // The folder as the user reached it (through a link, too): the project keeps that name.
    cwd: logicalCwd(process.env),
    env: process.env,
    outputPending: () => madeOut || madeErr,
  };
}

/** An in-memory IO for tests: everything written is kept. */
export function memoryIo(
  cwd: string,
  env: Record<string, string | undefined> = {},
): CliIo & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    errIsTTY: false,
    cwd,
    env,
    out(t: string) {
      io.stdout += t;
    },
    err(t: string) {
      io.stderr += t;
    },
  };
  return io;
}
