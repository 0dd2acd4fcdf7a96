/**
 * Copies the running binary to the stable per-user path `<home>/bin/ra3` (`ra3.exe` on Windows), which
 * every client config points at, so configs survive upgrades and wherever the user downloaded ra3.
 *
 * Unix: copy to a temporary file in `bin/`, chmod 755, check the checksum, rename over the target
 * (a running binary keeps its old inode). Windows: a running .exe cannot be overwritten or deleted but
 * can be renamed, and an MCP client may be running ra3 right now — so the old file is renamed to
 * `ra3.exe.old-<n>`, the new one is moved in, and {@link cleanupOldBinaries} deletes the leftovers
 * later (those still running stay until the next time).
 */
import { describeFsError, type FileSystemPort } from "../disk/port.ts";
import { type OsName } from "./platform.ts";
import { samePath } from "../project/paths.ts";

export interface SelfInstallInputs {
  /** The running binary (`process.execPath` of the compiled ra3). */
  readonly execPath: string;
  /** ra3's state folder. */
  readonly home: string;
  readonly os: OsName;
  readonly fs: FileSystemPort;
}

export type SelfInstallResult =
  | {
    readonly ok: true;
    /** `installed`: there was no binary; `updated`: a different one was replaced; `unchanged`: identical already. */
    readonly status: "installed" | "updated" | "unchanged";
    readonly path: string;
    readonly sha256: string;
    /** Windows: where the replaced binary was moved (removed again right away when it was not running). */
    readonly movedAside: string | null;
  }
  | { readonly ok: false; readonly error: string };

const OLD_BINARY = /^ra3(\.exe)?\.old-\d+$/i;

/** The folder the stable binary lives in: `<home>/bin`. */
function binDir(fs: FileSystemPort, home: string): string {
  return fs.path.join(home, "bin");
}

/** The stable binary path: `<home>/bin/ra3`, or `<home>\bin\ra3.exe` on Windows. */
export function installedBinaryPath(fs: FileSystemPort, home: string, os: OsName): string {
  return fs.path.join(binDir(fs, home), os === "windows" ? "ra3.exe" : "ra3");
}

function sameContent(fs: FileSystemPort, a: string, b: string): string | null {
  const [sa, sb] = [fs.stat(a), fs.stat(b)];
  if (!sa || !sb || sa.kind !== "file" || sb.kind !== "file" || sa.size !== sb.size) return null;
  const [ha, hb] = [fs.sha256(a), fs.sha256(b)];
  return ha !== null && ha === hb ? ha : null;
}

function tryRemove(fs: FileSystemPort, p: string): boolean {
  try {
    fs.remove(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Installs (or updates) the stable binary from `execPath`; skips the copy when the target already has
 * identical content (size and SHA-256). Failures leave the previous binary in place and come back as
 * an error sentence.
 * @example selfInstall({ execPath: process.execPath, home, os: "linux", fs: nodeFileSystem() })
 */
export function selfInstall(inputs: SelfInstallInputs): SelfInstallResult {
  const { execPath, home, os, fs } = inputs;
  const target = installedBinaryPath(fs, home, os);
  const dir = binDir(fs, home);
  const source = fs.stat(execPath);
  if (!source || source.kind !== "file") {
    return { ok: false, error: `cannot install ra3: the running binary ${execPath} is not a readable file.` };
  }

  if (samePath(execPath, target)) {
    const sha = fs.sha256(target);
    return { ok: true, status: "unchanged", path: target, sha256: sha ?? "", movedAside: null };
  }
  const identical = sameContent(fs, execPath, target);
  if (identical !== null) return { ok: true, status: "unchanged", path: target, sha256: identical, movedAside: null };

  const existed = (fs.stat(target)) !== null;
  const temp = fs.path.join(dir, os === "windows" ? `ra3.exe.new-${process.pid}` : `.ra3.tmp-${process.pid}`);
  let sha: string;
  try {
    fs.mkdir(dir);
    fs.copyFile(execPath, temp);
    if (os !== "windows") fs.chmod(temp, 0o755);
    const [want, got] = [fs.sha256(execPath), fs.sha256(temp)];
    if (want === null || want !== got) {
      throw Object.assign(new Error("the copy does not match the running binary (checksum differs)"), {
        code: "ECHECKSUM",
      });
    }
    sha = want;
  } catch (err) {
    tryRemove(fs, temp);
    return { ok: false, error: `could not copy ra3 to ${dir}: ${describeFsError(err)}. Nothing was changed.` };
  }

  if (os !== "windows" || !existed) {
    try {
      fs.rename(temp, target);
    } catch (err) {
      tryRemove(fs, temp);
      return {
        ok: false,
        error: `could not install ${target}: ${describeFsError(err)}. The previous binary is unchanged.`,
      };
    }
    return { ok: true, status: existed ? "updated" : "installed", path: target, sha256: sha, movedAside: null };
  }

  const aside = freeOldName(fs, dir);
  try {
    fs.rename(target, aside);
  } catch (err) {
    tryRemove(fs, temp);
    return {
      ok: false,
      error: `could not move the current ${target} aside: ${describeFsError(err)}. The previous binary is unchanged.`,
    };
  }
  try {
    fs.rename(temp, target);
  } catch (err) {
    // Put the old binary back so client configs keep working.
    let restored = true;
    try {
      fs.rename(aside, target);
    } catch {
      restored = false;
    }
    tryRemove(fs, temp);
    return {
      ok: false,
      error: restored
        ? `could not install ${target}: ${describeFsError(err)}. The previous binary is unchanged.`
        : `could not install ${target}: ${
          describeFsError(err)
        }, and the previous binary could not be moved back from ${aside}; rename it to ${target} by hand.`,
    };
  }
  // Deleting works when no client is running the old binary; otherwise cleanupOldBinaries gets it later.
  tryRemove(fs, aside);
  return { ok: true, status: "updated", path: target, sha256: sha, movedAside: aside };
}

function freeOldName(fs: FileSystemPort, dir: string): string {
  for (let n = 1;; n++) {
    const candidate = fs.path.join(dir, `ra3.exe.old-${n}`);
    if (!(fs.exists(candidate))) return candidate;
  }
}

/**
 * Deletes `ra3[.exe].old-<n>` files left in `<home>/bin` by earlier Windows updates. Files still in use
 * (a client is running that old binary) cannot be deleted; they are listed in `kept` and tried again
 * next time.
 */
export function cleanupOldBinaries(
  fs: FileSystemPort,
  home: string,
): { readonly removed: string[]; readonly kept: string[] } {
  const dir = binDir(fs, home);
  const removed: string[] = [];
  const kept: string[] = [];
  for (const name of (fs.listDir(dir)) ?? []) {
    if (!OLD_BINARY.test(name)) continue;
    const p = fs.path.join(dir, name);
    if (tryRemove(fs, p)) removed.push(p);
    else kept.push(p);
  }
  return { removed, kept };
}
