/**
 * Windsurf (Cascade): `~/.codeium/windsurf/mcp_config.json` (Windows under `%USERPROFILE%`), key
 * `mcpServers`, user scope only. Treated as strict JSON (not documented otherwise).
 */
import type { FileSystemPort } from "../../disk/port.ts";
import type { Platform } from "../platform.ts";
import { fixedLocation, jsonWriter, unsupportedScope } from "./json-dialect.ts";
import { editorExpansion } from "./expansion.ts";
import { clientFolder, firstFound, onPath } from "./presence.ts";
import type { ClientConfigWriter, ConfigLocation, Scope } from "./types.ts";

function windsurfDir(platform: Platform): string {
  return platform.pathFlavour.join(platform.home, ".codeium", "windsurf");
}

function locate(platform: Platform, scope: Scope, _fs: FileSystemPort): ConfigLocation {
  if (scope !== "user") return unsupportedScope("Windsurf", scope);
  return fixedLocation(platform.pathFlavour.join(windsurfDir(platform), "mcp_config.json"));
}

/** The Windsurf writer. */
export const windsurfWriter: ClientConfigWriter = jsonWriter({
  id: "windsurf",
  displayName: "Windsurf",
  scopes: ["user"],
  syntax: "json",
  expansion: editorExpansion,
  serversKey: "mcpServers",
  renderEntry: (e) => ({ command: e.command, args: [...e.args] }),
  locate,
  presence: (platform, fs) =>
    firstFound(() => clientFolder(fs, windsurfDir(platform)), () => onPath(platform, fs, ["windsurf"])),
});
