/**
 * Claude Desktop: `claude_desktop_config.json`, key `mcpServers`, strict JSON, user scope only.
 * macOS `~/Library/Application Support/Claude/`; Windows `%APPDATA%\Claude\` for the classic installer
 * or, for the MSIX package (the default installer since early 2026), the package's virtualised copy
 * `%LOCALAPPDATA%\Packages\Claude_<id>\LocalCache\Roaming\Claude\` — writing the classic file then does
 * nothing. Linux has no official build; unofficial builds use `~/.config/Claude/`.
 */
import { type FileSystemPort } from "../../disk/port.ts";
import { appDataDir, localAppDataDir, type Platform, xdgConfigHome } from "../platform.ts";
import { firstExisting, fixedLocation, jsonWriter, unsupportedScope } from "./json-dialect.ts";
import type { ClientConfigWriter, ConfigLocation, Scope } from "./types.ts";

const FILE = "claude_desktop_config.json";

/** The MSIX package folders of Claude Desktop (`%LOCALAPPDATA%\Packages\Claude_*`). */
function msixPackages(platform: Platform, fs: FileSystemPort): string[] {
  const packages = platform.pathFlavour.join(localAppDataDir(platform), "Packages");
  let names: string[];
  try {
    names = fs.listDir(packages) ?? [];
  } catch {
    names = []; // an unreadable Packages folder: no package can be found there
  }
  return names.filter((n) => /^claude_/i.test(n)).map((n) => platform.pathFlavour.join(packages, n));
}

function locate(platform: Platform, scope: Scope, fs: FileSystemPort): ConfigLocation {
  if (scope !== "user") return unsupportedScope("Claude Desktop", scope);
  const j = platform.pathFlavour.join;
  if (platform.os === "macos") return fixedLocation(j(platform.home, "Library", "Application Support", "Claude", FILE));
  if (platform.os === "linux") {
    return fixedLocation(j(xdgConfigHome(platform), "Claude", FILE), [
      "Claude Desktop has no official Linux build; this is where unofficial builds read their configuration.",
    ]);
  }
  const classic = j(appDataDir(platform), "Claude", FILE);
  const packages = msixPackages(platform, fs);
  const msixFiles = packages.map((p) => j(p, "LocalCache", "Roaming", "Claude", FILE));
  const candidates = [...msixFiles, classic];
  const existing: string[] = [];
  for (const c of candidates) if (fs.exists(c)) existing.push(c);
  if (existing.length === 1) {
    const unused = packages.filter((_p, i) => msixFiles[i] !== existing[0]);
    const notes = unused.map((p) =>
      `Also found the Claude Desktop package folder ${p}, which has no configuration file; ra3 left it alone.`
    );
    return { file: existing[0], candidates, problem: null, notes };
  }
  if (existing.length > 1) {
    return {
      file: null,
      candidates,
      problem:
        `Claude Desktop has configuration files in ${existing.length} places (${
          existing.join("; ")
        }) and ra3 cannot tell which one the app reads. ` +
        "In Claude Desktop open Settings → Developer → Edit Config to see the file it uses, rename the other one, and run setup again.",
      notes: [],
    };
  }
  if (packages.length === 0) return { file: classic, candidates, problem: null, notes: [] };
  if (packages.length === 1) {
    return {
      file: msixFiles[0],
      candidates,
      problem: null,
      notes: ["Claude Desktop is installed as an MSIX package, so its configuration lives in the package folder."],
    };
  }
  return {
    file: null,
    candidates,
    problem:
      `Found ${packages.length} Claude Desktop packages (${
        packages.join("; ")
      }) and no configuration file in any of them, so ra3 cannot tell which one is in use. ` +
      "In Claude Desktop open Settings → Developer → Edit Config (this creates the file) and run setup again.",
    notes: [],
  };
}

function presence(platform: Platform, fs: FileSystemPort): string | null {
  const j = platform.pathFlavour.join;
  switch (platform.os) {
    case "macos":
      return firstExisting(fs, [j(platform.home, "Library", "Application Support", "Claude")]);
    case "linux":
      return firstExisting(fs, [j(xdgConfigHome(platform), "Claude")]);
    case "windows":
      return msixPackages(platform, fs)[0] ?? firstExisting(fs, [j(appDataDir(platform), "Claude")]);
  }
}

/** The Claude Desktop writer. */
export const claudeDesktopWriter: ClientConfigWriter = jsonWriter({
  id: "claude-desktop",
  displayName: "Claude Desktop",
  scopes: ["user"],
  syntax: "json",
  expansion: null,
  serversKey: "mcpServers",
  renderEntry: (e) => ({ command: e.command, args: [...e.args] }),
  locate,
  presence,
});
