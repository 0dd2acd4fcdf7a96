/**
 * VS Code (GitHub Copilot agent mode): key `servers` (not `mcpServers`), entries need `type: "stdio"`.
 * User file `mcp.json` in the Code user folder (`%APPDATA%\Code\User`, `~/Library/Application
 * Support/Code/User`, `~/.config/Code/User`); project `.vscode/mcp.json`. JSONC. Only the default
 * profile and the stable build are handled (not Insiders, portable mode or extra profiles).
 */
import { type FileSystemPort } from "../../disk/port.ts";
import { type Platform, userSettingsDir } from "../platform.ts";
import { fixedLocation, jsonWriter, noProjectLocation } from "./json-dialect.ts";
import { editorExpansion } from "./expansion.ts";
import { clientFolder, firstFound, onPath } from "./presence.ts";
import type { ClientConfigWriter, ConfigLocation, Scope } from "./types.ts";

/** The VS Code user folder (`.../Code/User`). */
export function vscodeUserDir(platform: Platform): string {
  return platform.pathFlavour.join(userSettingsDir(platform), "Code", "User");
}

function locate(
  platform: Platform,
  scope: Scope,
  _fs: FileSystemPort,
  projectDir?: string,
): ConfigLocation {
  const j = platform.pathFlavour.join;
  if (scope === "project") {
    return projectDir ? fixedLocation(j(projectDir, ".vscode", "mcp.json")) : noProjectLocation("VS Code");
  }
  return fixedLocation(j(vscodeUserDir(platform), "mcp.json"));
}

/** The VS Code writer. */
export const vscodeWriter: ClientConfigWriter = jsonWriter({
  id: "vscode",
  displayName: "VS Code",
  scopes: ["user", "project"],
  syntax: "jsonc",
  expansion: editorExpansion,
  serversKey: "servers",
  renderEntry: (e) => ({ type: "stdio", command: e.command, args: [...e.args] }),
  locate,
  presence: (platform, fs) =>
    firstFound(() => clientFolder(fs, vscodeUserDir(platform)), () => onPath(platform, fs, ["code"])),
});
