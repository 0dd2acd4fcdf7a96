/**
 * A one-shot command that is about to build the index from nothing runs in a child of the same binary
 * with JavaScriptCore's top JIT tier (FTL) off. In a run of one or two seconds that tier costs more than
 * it gives: on the TW SDK its compiler thread spent about 1.6 s of CPU beside the main thread's 1.2 s, and
 * the main thread did as much work without it (1.16 s against 1.19 s), so no machine loses: a cold
 * `ra3 index` took 0.78–0.99× the wall time and 0.59–0.72× the CPU on a 2-core machine, 0.65× the wall
 * time on one core (docs/performance.md). The engine reads its options from the environment before any
 * code runs, hence the child; it costs one process start (≈ 10 ms), paid only when a full build of
 * hundreds of milliseconds follows. The child also gets a larger collector allowance ({@link HEAP_OPTION}).
 * Long-lived runs (`ra3 mcp`, `--watch`) keep the tier: they run the
 * same code for hours; so does `ra3 setup`, which opens the index as one of its steps. Outside Windows
 * the parent exits when the child sends its status through a pipe, once its answer is out and its save
 * has begun, and the child finishes the save alone (`detach.ts`).
 */
import { spawn, spawnSync } from "node:child_process";
import { constants } from "node:os";

/**
 * The environment variable that tells the child its status pipe (`detach.ts`): set by the parent only,
 * to {@link STATUS_FD}, the fourth entry of the child's stdio.
 */
export const STATUS_FD_OPTION = "RA3_STATUS_FD";
export const STATUS_FD = 3;
/** Beside the snapshot: the message of a save that failed after its run had answered (`detach.ts`). */
export const FAILED_SAVE_SUFFIX = ".failed";
/**
 * Set (to anything but "" or "0"), a run exits only once its snapshot is on disk, as before `detach.ts`:
 * for a script that reads the snapshot file itself, or a measurement of the whole process tree.
 */
export const WAIT_FOR_SAVE_OPTION = "RA3_WAIT_FOR_SAVE";

/** The engine option the child gets; set by the user (to any value), it is left alone and nothing relaunches. */
export const FTL_OPTION = "BUN_JSC_useFTLJIT";

/**
 * The second option the child gets, unless the user set it: the collector's minimum allowance per cycle
 * for a large heap (JavaScriptCore's default: 32 MB). A cold build allocates a few hundred megabytes of
 * short-lived objects in about a second; with the default the collector ran 8 times on Upheaval, with
 * 256 MB 4 times. Interleaved cold runs: Upheaval 667 → 639 ms, with the RA3 schema 801 → 757, TW
 * 1,007 → 905, Corona 2.21 → 2.15 s; peak RSS +12 to +20 MB, Corona's unchanged (docs/performance.md,
 * "thirteenth submission"). The binary embeds its engine, so the option exists in the child: an unknown
 * one would make the engine refuse to start (the suite's cold run of `dist/ra3` would fail).
 */
export const HEAP_OPTION = "BUN_JSC_largeHeapSize";
const HEAP_BYTES = String(256 * 1024 * 1024);

/** What {@link relaunchPlan} decides from. */
export interface RelaunchFacts {
  /** Running as the compiled binary (not `bun src/main.ts`, not Deno). */
  readonly compiled: boolean;
  /** The command line as typed, when the run is one (not a double-click's own setup). */
  readonly argv: readonly string[] | null;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `--watch`: the run lasts. */
  readonly watch: boolean;
  /** A snapshot of the project exists (a warm start, or a rebuild of a broken one: not worth a child). */
  readonly snapshotExists: boolean;
  /**
   * The child may hand back its status before its save ends (`detach.ts`): not on Windows, and not after
   * such a save failed (its note is beside the snapshot) or was cut short (its lock is left), so that a
   * failure is seen by the next run.
   */
  readonly detach: boolean;
}

/** The child to run instead of building here: the same command line, the option off. */
export interface RelaunchPlan {
  readonly args: readonly string[];
  readonly env: Record<string, string | undefined>;
  /** The parent exits when the child's status comes through its pipe, not at the child's end. */
  readonly detach: boolean;
}

/** The child to run instead of building here, or null to build in this process. */
export function relaunchPlan(facts: RelaunchFacts): RelaunchPlan | null {
  if (!facts.compiled || facts.argv === null || facts.watch || facts.snapshotExists) return null;
  if (facts.env[FTL_OPTION] !== undefined) return null;
  const env: Record<string, string | undefined> = { ...facts.env, [FTL_OPTION]: "0" };
  if (env[HEAP_OPTION] === undefined) env[HEAP_OPTION] = HEAP_BYTES;
  const wait = env[WAIT_FOR_SAVE_OPTION];
  const detach = facts.detach && (wait === undefined || wait === "" || wait === "0");
  if (detach) env[STATUS_FD_OPTION] = String(STATUS_FD);
  else delete env[STATUS_FD_OPTION];
  return { args: facts.argv, env, detach };
}

/** The command line of this run, set by the entry point when it runs one as typed (see {@link relaunchPlan}). */
let typedArgv: readonly string[] | null = null;

export function setTypedArgv(argv: readonly string[] | null): void {
  typedArgv = argv;
}

export function typedCommandLine(): readonly string[] | null {
  return typedArgv;
}

/**
 * Runs `plan`'s child with this process's stdin, stdout and stderr, and returns its exit status (a child
 * ended by a signal: 128 + the signal's number, as a shell reports it); null when it could not start
 * (the caller builds here instead). With `plan.detach` the status is the one the child sends through its
 * pipe once its answer is out and its save has begun (`detach.ts`); the child's end, if first, gives it.
 */
export function runRelaunched(execPath: string, plan: RelaunchPlan): Promise<number | null> {
  if (!plan.detach) {
    const r = spawnSync(execPath, plan.args, { stdio: "inherit", env: plan.env });
    return Promise.resolve(r.error ? null : r.status ?? signalStatus(r.signal));
  }
  // The status comes through the pipe (the child goes on saving), or the child's end gives it.
  return new Promise((resolve) => {
    let done = false;
    const finish = (status: number | null) => {
      if (done) return;
      done = true;
      child.unref();
      child.stdio[STATUS_FD]?.destroy();
      resolve(status);
    };
    const child = spawn(execPath, plan.args, { stdio: ["inherit", "inherit", "inherit", "pipe"], env: plan.env });
    let line = "";
    child.stdio[STATUS_FD]?.on("data", (chunk: Buffer) => {
      line += chunk.toString("latin1");
      const end = line.indexOf("\n");
      const status = end < 0 ? NaN : Number(line.slice(0, end));
      if (Number.isSafeInteger(status)) finish(status);
    });
    child.stdio[STATUS_FD]?.on("error", () => {}); // a child gone mid-line: its end decides
    child.on("error", () => finish(null));
    child.on("exit", (code, signal) => finish(code ?? signalStatus(signal)));
  });
}

function signalStatus(signal: NodeJS.Signals | null): number {
  const signals: Partial<Record<string, number>> = constants.signals;
  return 128 + ((signal && signals[signal]) || 0);
}
