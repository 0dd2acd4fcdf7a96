/**
 * Gemini CLI: `~/.gemini/settings.json`, project `.gemini/settings.json`, key `mcpServers`. The file
 * also holds the CLI's other settings; Gemini strips comments when reading it, so it is JSONC.
 */
import type { FileSystemPort } from "../../disk/port.ts";
import type { Platform } from "../platform.ts";
import { firstExisting, fixedLocation, jsonWriter, noProjectLocation } from "./json-dialect.ts";
import type { ClientConfigWriter, ConfigLocation, Scope } from "./types.ts";

function locate(
  platform: Platform,
  scope: Scope,
  _fs: FileSystemPort,
  projectDir?: string,
): ConfigLocation {
  const j = platform.pathFlavour.join;
  if (scope === "project") {
    return projectDir ? fixedLocation(j(projectDir, ".gemini", "settings.json")) : noProjectLocation("Gemini CLI");
  }
  return fixedLocation(j(platform.home, ".gemini", "settings.json"));
}

/** The Gemini CLI writer. */
export const geminiWriter: ClientConfigWriter = jsonWriter({
  id: "gemini",
  displayName: "Gemini CLI",
  scopes: ["user", "project"],
  syntax: "jsonc",
  serversKey: "mcpServers",
  renderEntry: (e) => ({ command: e.command, args: [...e.args] }),
  locate,
  presence: (platform, fs) => firstExisting(fs, [platform.pathFlavour.join(platform.home, ".gemini")]),
});
