/**
 * Zed: key `context_servers` in `settings.json` (JSONC — Zed's own file starts with comments).
 * Linux `$FLATPAK_XDG_CONFIG_HOME/zed` or `$XDG_CONFIG_HOME/zed` (default `~/.config/zed`); macOS
 * `~/.config/zed` (Zed does not use Application Support there); Windows `%APPDATA%\Zed`. Project scope
 * `.zed/settings.json`. Entries carry `"source": "custom"`, as Zed's own "Add Custom Server" writes them,
 * because some Zed versions tell custom servers from extension ones by that field.
 */
import { type FileSystemPort } from "../../disk/port.ts";
import { appDataDir, envVar, type Platform, xdgConfigHome } from "../platform.ts";
import { fixedLocation, jsonWriter, noProjectLocation } from "./json-dialect.ts";
import { clientFolder, firstFound, onPath } from "./presence.ts";
import type { ClientConfigWriter, ConfigLocation, Scope } from "./types.ts";

function zedDir(platform: Platform): string {
  const j = platform.pathFlavour.join;
  switch (platform.os) {
    case "windows":
      return j(appDataDir(platform), "Zed");
    case "macos":
      return j(platform.home, ".config", "zed");
    case "linux": {
      const flatpak = envVar(platform, "FLATPAK_XDG_CONFIG_HOME");
      return j(flatpak && platform.pathFlavour.isAbsolute(flatpak) ? flatpak : xdgConfigHome(platform), "zed");
    }
  }
}

function locate(
  platform: Platform,
  scope: Scope,
  _fs: FileSystemPort,
  projectDir?: string,
): ConfigLocation {
  const j = platform.pathFlavour.join;
  if (scope === "project") {
    return projectDir ? fixedLocation(j(projectDir, ".zed", "settings.json")) : noProjectLocation("Zed");
  }
  return fixedLocation(j(zedDir(platform), "settings.json"));
}

/** The Zed writer. */
export const zedWriter: ClientConfigWriter = jsonWriter({
  id: "zed",
  displayName: "Zed",
  scopes: ["user", "project"],
  syntax: "jsonc",
  expansion: null,
  serversKey: "context_servers",
  renderEntry: (e) => ({ source: "custom", command: e.command, args: [...e.args] }),
  locate,
  presence: (platform, fs) => firstFound(() => clientFolder(fs, zedDir(platform)), () => onPath(platform, fs, ["zed"])),
});
