/**
 * GitHub Copilot CLI: `~/.copilot/mcp-config.json` (`$COPILOT_HOME/mcp-config.json` when set), key
 * `mcpServers`, entries `{type: "local", command, args, tools: ["*"]}` — the shape `copilot mcp add`
 * writes. Verified with Copilot CLI 1.0.102 (docs/clients.md): comments and trailing commas are
 * accepted; `copilot mcp get` shows `$VAR`/`${VAR}` in `args` unexpanded. Only the user file is written:
 * the workspace files (`.mcp.json`, `.github/mcp.json`) were not picked up in a plain folder here.
 */
import type { FileSystemPort } from "../../disk/port.ts";
import { envVar, type Platform } from "../platform.ts";
import { fixedLocation, jsonWriter, unsupportedScope } from "./json-dialect.ts";
import { clientFolder, firstFound, onPath } from "./presence.ts";
import type { ClientConfigWriter, ConfigLocation, Scope } from "./types.ts";

/** `~/.copilot`, or `$COPILOT_HOME`. */
function copilotDir(platform: Platform): string {
  const dir = envVar(platform, "COPILOT_HOME");
  return dir && platform.pathFlavour.isAbsolute(dir) ? dir : platform.pathFlavour.join(platform.home, ".copilot");
}

function locate(platform: Platform, scope: Scope, _fs: FileSystemPort): ConfigLocation {
  if (scope !== "user") return unsupportedScope("GitHub Copilot CLI", scope);
  const notes = envVar(platform, "COPILOT_HOME")
    ? ["COPILOT_HOME is set, so Copilot CLI keeps its configuration there."]
    : [];
  return fixedLocation(platform.pathFlavour.join(copilotDir(platform), "mcp-config.json"), notes);
}

/** The GitHub Copilot CLI writer. */
export const copilotWriter: ClientConfigWriter = jsonWriter({
  id: "copilot",
  displayName: "GitHub Copilot CLI",
  scopes: ["user"],
  syntax: "jsonc",
  expansion: null,
  serversKey: "mcpServers",
  renderEntry: (e) => ({ type: "local", command: e.command, args: [...e.args], tools: ["*"] }),
  locate,
  presence: (platform, fs) =>
    firstFound(() => clientFolder(fs, copilotDir(platform)), () => onPath(platform, fs, ["copilot"])),
});
