/**
 * Cursor: `~/.cursor/mcp.json` (Windows `%USERPROFILE%\.cursor\mcp.json`), project `.cursor/mcp.json`,
 * key `mcpServers`. Whether Cursor accepts comments is not documented, so the file is treated as strict
 * JSON (comments already there are kept, and reported).
 */
import type { FileSystemPort } from "../../disk/port.ts";
import type { Platform } from "../platform.ts";
import { fixedLocation, jsonWriter, noProjectLocation } from "./json-dialect.ts";
import { editorExpansion } from "./expansion.ts";
import { clientFolder, firstFound, onPath } from "./presence.ts";
import type { ClientConfigWriter, ConfigLocation, Scope } from "./types.ts";

function locate(
  platform: Platform,
  scope: Scope,
  _fs: FileSystemPort,
  projectDir?: string,
): ConfigLocation {
  const j = platform.pathFlavour.join;
  if (scope === "project") {
    return projectDir ? fixedLocation(j(projectDir, ".cursor", "mcp.json")) : noProjectLocation("Cursor");
  }
  return fixedLocation(j(platform.home, ".cursor", "mcp.json"));
}

/** The Cursor writer. */
export const cursorWriter: ClientConfigWriter = jsonWriter({
  id: "cursor",
  displayName: "Cursor",
  scopes: ["user", "project"],
  syntax: "json",
  expansion: editorExpansion,
  serversKey: "mcpServers",
  renderEntry: (e) => ({ command: e.command, args: [...e.args] }),
  locate,
  presence: (platform, fs) =>
    firstFound(
      () => clientFolder(fs, platform.pathFlavour.join(platform.home, ".cursor")),
      () => onPath(platform, fs, ["cursor"]),
    ),
});
