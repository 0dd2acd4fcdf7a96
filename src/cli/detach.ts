/**
 * A build from nothing runs in a child (`relaunch.ts`) whose parent waits for a status line on a pipe
 * (fd `STATUS_FD`) rather than for the child's end. The child answers, takes the snapshot's writer
 * lock, then hands the parent its exit status ({@link releaseParent}): the parent exits with it, the
 * child's stdout and stderr now point at the null device, so whoever reads them sees their end, and the
 * child writes the snapshot on its own. Every reader of a missing snapshot waits for a live writer's lock
 * (`SnapshotStore.waitForWriter`), so the next command starts warm from the file. A save that fails
 * there leaves a note beside the snapshot (`FAILED_SAVE_SUFFIX`): the next run says it (and removes
 * it), and the next build from nothing saves before it exits, in sight. On Windows nothing detaches (the fds are
 * not the console's handles there), nor with `RA3_WAIT_FOR_SAVE` set. docs/cli.md, "Exit status".
 */
import { closeSync, fstatSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { devNull } from "node:os";
import { FAILED_SAVE_SUFFIX, STATUS_FD, STATUS_FD_OPTION } from "./relaunch.ts";

/** The status pipe of this process, taken from the environment once (null: no parent waits for it). */
let statusFd: number | null | undefined;

function statusPipe(env: Record<string, string | undefined>): number | null {
  if (statusFd !== undefined) return statusFd;
  statusFd = null;
  if (env[STATUS_FD_OPTION] !== String(STATUS_FD) || process.platform === "win32") return null;
  delete env[STATUS_FD_OPTION];
  try {
    // Only a pipe (Bun makes a socket pair): an fd 3 the user's shell left open on a file is not ours.
    const st = fstatSync(STATUS_FD);
    if (st.isFIFO() || st.isSocket()) statusFd = STATUS_FD;
  } catch {
    // Not open: the parent is not ours.
  }
  return statusFd;
}

/** True when a parent waits for this process's status, so its save may go on after the answer. */
export function canReleaseParent(env: Record<string, string | undefined> = process.env): boolean {
  return statusPipe(env) !== null;
}

/**
 * Hands `status` to the waiting parent (it exits with it) and points stdout and stderr at the null device,
 * so their readers see the end of them now; everything this process writes there afterwards is dropped.
 * Returns false, having done nothing, when no parent waits or the pipe is gone (the parent then waits for
 * this process's end, as without it). Never throws.
 */
export function releaseParent(status: number, env: Record<string, string | undefined> = process.env): boolean {
  const fd = statusPipe(env);
  if (fd === null) return false;
  statusFd = null;
  try {
    writeSync(fd, `${status}\n`);
  } catch {
    return false;
  } finally {
    closeQuietly(fd);
  }
  // A terminal closed after the parent's end (a pty an agent opened for that one command) hangs up on
  // the whole session: the save goes on regardless (a handler, unlike the default, does not end it).
  try {
    process.on("SIGHUP", () => {});
  } catch {
    // No such signal here.
  }
  // No dup2 in Node's API: a closed fd is reused by the next open, which is the null device's. Nothing
  // else opens files at this moment (the build is over, the save has not begun).
  for (const std of [1, 2]) {
    closeQuietly(std);
    try {
      const opened = openSync(devNull, "w");
      if (opened !== std) closeQuietly(opened);
    } catch {
      // The fd stays closed: writes to it fail, and the CLI's writers drop what fails.
    }
  }
  return true;
}

/** Where a save that failed after its run answered leaves its message (see {@link recordFailedSave}). */
function failedSavePath(snapshotPath: string): string {
  return snapshotPath + FAILED_SAVE_SUFFIX;
}

/** Leaves `message`, the failure of a save no one saw, beside the snapshot; best effort, never throws. */
export function recordFailedSave(snapshotPath: string, message: string): void {
  try {
    writeFileSync(failedSavePath(snapshotPath), message + "\n");
  } catch {
    // The folder is gone or not writable: the next run finds no snapshot and builds again.
  }
}

/**
 * The message a save that failed after its run answered left beside `snapshotPath`, removed as it is
 * read (it has been seen once it is said), or null when there is none. Never throws.
 */
export function takeFailedSave(snapshotPath: string): string | null {
  const path = failedSavePath(snapshotPath);
  let message: string;
  try {
    message = readFileSync(path, "utf8").trim();
    rmSync(path, { force: true });
  } catch {
    return null;
  }
  return message || "unknown error";
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
}
