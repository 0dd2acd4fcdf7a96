/**
 * The environment the setup code runs against, made injectable so tests on Linux can compute Windows and
 * macOS paths: {@link Platform} (which OS, whose home, which environment variables, which path syntax)
 * and the per-user folders derived from it. File operations go through the one file-system port,
 * `disk/port.ts`.
 */
import * as nodePath from "node:path";
import { homedir } from "node:os";
import { native, type PathFlavour } from "../project/paths.ts";

export type OsName = "windows" | "macos" | "linux";

/** Where and as whom setup runs. `env` is read through {@link envVar} (case-insensitive on Windows). */
export interface Platform {
  readonly os: OsName;
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly pathFlavour: PathFlavour;
}

/** Maps `process.platform` to our three OS names (everything that is not Windows or macOS is treated as Linux). */
export function osFromNodePlatform(p: string): OsName {
  return p === "win32" ? "windows" : p === "darwin" ? "macos" : "linux";
}

/** The platform of the running process: its OS, `os.homedir()`, `process.env` and the native path syntax. */
export function currentPlatform(): Platform {
  return { os: osFromNodePlatform(process.platform), home: homedir(), env: process.env, pathFlavour: native };
}

/**
 * A platform for the given OS with that OS's path syntax (`win32` for Windows, `posix` otherwise).
 * @example platformFor("windows", "C:\\Users\\ann", { APPDATA: "C:\\Users\\ann\\AppData\\Roaming" })
 */
export function platformFor(os: OsName, home: string, env: Record<string, string | undefined> = {}): Platform {
  return { os, home, env, pathFlavour: os === "windows" ? nodePath.win32 : nodePath.posix };
}

/**
 * The value of an environment variable, or undefined when unset or empty. Windows variable names are
 * case-insensitive, so `envVar(p, "APPDATA")` also finds `AppData` there.
 */
export function envVar(platform: Platform, name: string): string | undefined {
  let value = platform.env[name];
  if (value === undefined && platform.os === "windows") {
    const upper = name.toUpperCase();
    for (const [k, v] of Object.entries(platform.env)) {
      if (k.toUpperCase() === upper) {
        value = v;
        break;
      }
    }
  }
  return value === undefined || value === "" ? undefined : value;
}

/** An absolute directory from an environment variable, or undefined when unset, empty or relative. */
function absoluteEnvDir(platform: Platform, name: string): string | undefined {
  const v = envVar(platform, name);
  return v !== undefined && platform.pathFlavour.isAbsolute(v) ? v : undefined;
}

/**
 * `%APPDATA%` on Windows (falling back to `<home>\AppData\Roaming`, since clients such as Codex strip
 * the variable from a server's environment).
 */
export function appDataDir(platform: Platform): string {
  return absoluteEnvDir(platform, "APPDATA") ?? platform.pathFlavour.join(platform.home, "AppData", "Roaming");
}

/** `%LOCALAPPDATA%` on Windows, falling back to `<home>\AppData\Local`. */
export function localAppDataDir(platform: Platform): string {
  return absoluteEnvDir(platform, "LOCALAPPDATA") ?? platform.pathFlavour.join(platform.home, "AppData", "Local");
}

/** `$XDG_CONFIG_HOME` when set to an absolute path, else `<home>/.config`. */
export function xdgConfigHome(platform: Platform): string {
  return absoluteEnvDir(platform, "XDG_CONFIG_HOME") ?? platform.pathFlavour.join(platform.home, ".config");
}

/**
 * The per-user application settings folder, as Electron apps (VS Code, Claude Desktop) use it:
 * `%APPDATA%` on Windows, `~/Library/Application Support` on macOS, `$XDG_CONFIG_HOME` on Linux.
 */
export function userSettingsDir(platform: Platform): string {
  switch (platform.os) {
    case "windows":
      return appDataDir(platform);
    case "macos":
      return platform.pathFlavour.join(platform.home, "Library", "Application Support");
    case "linux":
      return xdgConfigHome(platform);
  }
}
