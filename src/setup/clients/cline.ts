/**
 * Cline: the VS Code extension keeps `cline_mcp_settings.json` in its global storage
 * (`<Code user folder>/globalStorage/saoudrizwan.claude-dev/settings/`); Cline's CLI uses
 * `~/.cline/data/settings/` (`$CLINE_DIR` instead of `~/.cline`). Key `mcpServers`, user scope only,
 * strict JSON. The extension's file wins when both exist (the CLI's is reported).
 */
import { type FileSystemPort } from "../../disk/port.ts";
import { envVar, type Platform } from "../platform.ts";
import { firstExisting, jsonWriter, unsupportedScope } from "./json-dialect.ts";
import type { ClientConfigWriter, ConfigLocation, Scope } from "./types.ts";
import { vscodeUserDir } from "./vscode.ts";

const FILE = "cline_mcp_settings.json";

function extensionDir(platform: Platform): string {
  return platform.pathFlavour.join(vscodeUserDir(platform), "globalStorage", "saoudrizwan.claude-dev");
}

function clineDir(platform: Platform): string {
  const dir = envVar(platform, "CLINE_DIR");
  return dir && platform.pathFlavour.isAbsolute(dir) ? dir : platform.pathFlavour.join(platform.home, ".cline");
}

function locate(platform: Platform, scope: Scope, fs: FileSystemPort): ConfigLocation {
  if (scope !== "user") return unsupportedScope("Cline", scope);
  const j = platform.pathFlavour.join;
  const extension = j(extensionDir(platform), "settings", FILE);
  const cli = j(clineDir(platform), "data", "settings", FILE);
  const candidates = [extension, cli];
  const extensionExists = fs.exists(extension);
  const cliExists = fs.exists(cli);
  if (extensionExists && cliExists) {
    return {
      file: extension,
      candidates,
      problem: null,
      notes: [`Cline's CLI has its own configuration at ${cli}; ra3 did not change it.`],
    };
  }
  if (extensionExists) return { file: extension, candidates, problem: null, notes: [] };
  if (cliExists) return { file: cli, candidates, problem: null, notes: [] };
  const file = (fs.exists(extensionDir(platform))) || !(fs.exists(clineDir(platform))) ? extension : cli;
  return { file, candidates, problem: null, notes: [] };
}

/** The Cline writer. */
export const clineWriter: ClientConfigWriter = jsonWriter({
  id: "cline",
  displayName: "Cline",
  scopes: ["user"],
  syntax: "json",
  serversKey: "mcpServers",
  renderEntry: (e) => ({ command: e.command, args: [...e.args] }),
  locate,
  presence: (platform, fs) => firstExisting(fs, [extensionDir(platform), clineDir(platform)]),
});
