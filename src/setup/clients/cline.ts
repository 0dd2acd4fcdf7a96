/**
 * Cline comes as a CLI and as a VS Code extension, with separate files (key `mcpServers` in both):
 * - the CLI (`cline`): `$CLINE_MCP_SETTINGS_PATH`, else `<data>/settings/cline_mcp_settings.json` where
 *   `<data>` is `$CLINE_DATA_DIR`, else `$CLINE_DIR/data`, else `~/.cline/data` (as Cline CLI 3.0
 *   resolves it). Entries are written as `cline mcp add` writes them: `{transport: {type: "stdio",
 *   command, args}}`.
 * - the extension (`cline-vscode`): `<Code user folder>/globalStorage/saoudrizwan.claude-dev/settings/
 *   cline_mcp_settings.json`, entries `{command, args}`.
 * Each is detected by its own traces (the CLI's binary or data folder; the extension's global-storage
 * folder), and ra3 never creates either tree for a Cline that is not installed. `--client cline` means
 * every Cline found (see registry.ts). Strict JSON.
 */
import type { FileSystemPort } from "../../disk/port.ts";
import { envVar, type Platform } from "../platform.ts";
import { fixedLocation, jsonWriter, unsupportedScope } from "./json-dialect.ts";
import { clientFolder, existing, firstFound, onPath } from "./presence.ts";
import type { ClientConfigWriter, ConfigLocation, Scope } from "./types.ts";
import { vscodeUserDir } from "./vscode.ts";

const FILE = "cline_mcp_settings.json";

function absoluteEnv(platform: Platform, name: string): string | undefined {
  const v = envVar(platform, name);
  return v && platform.pathFlavour.isAbsolute(v) ? v : undefined;
}

/** The CLI's folder: `$CLINE_DIR`, else `~/.cline`. */
function clineDir(platform: Platform): string {
  return absoluteEnv(platform, "CLINE_DIR") ?? platform.pathFlavour.join(platform.home, ".cline");
}

/** The CLI's data folder: `$CLINE_DATA_DIR`, else `<cline dir>/data`. */
function clineDataDir(platform: Platform): string {
  return absoluteEnv(platform, "CLINE_DATA_DIR") ?? platform.pathFlavour.join(clineDir(platform), "data");
}

/** The file Cline CLI reads its MCP servers from. */
function clineCliFile(platform: Platform): string {
  return absoluteEnv(platform, "CLINE_MCP_SETTINGS_PATH") ??
    platform.pathFlavour.join(clineDataDir(platform), "settings", FILE);
}

/** The VS Code extension's global-storage folder (created by the extension when it first runs). */
function extensionDir(platform: Platform): string {
  return platform.pathFlavour.join(vscodeUserDir(platform), "globalStorage", "saoudrizwan.claude-dev");
}

function cliLocate(platform: Platform, scope: Scope, _fs: FileSystemPort): ConfigLocation {
  if (scope !== "user") return unsupportedScope("Cline CLI", scope);
  const notes = envVar(platform, "CLINE_MCP_SETTINGS_PATH")
    ? ["CLINE_MCP_SETTINGS_PATH is set, so Cline CLI reads its MCP servers from there."]
    : [];
  return fixedLocation(clineCliFile(platform), notes);
}

function extensionLocate(platform: Platform, scope: Scope, _fs: FileSystemPort): ConfigLocation {
  if (scope !== "user") return unsupportedScope("Cline (VS Code)", scope);
  return fixedLocation(platform.pathFlavour.join(extensionDir(platform), "settings", FILE));
}

/** The Cline CLI writer. */
export const clineWriter: ClientConfigWriter = jsonWriter({
  id: "cline",
  displayName: "Cline CLI",
  scopes: ["user"],
  syntax: "json",
  expansion: null,
  serversKey: "mcpServers",
  renderEntry: (e) => ({ transport: { type: "stdio", command: e.command, args: [...e.args] } }),
  locate: cliLocate,
  presence: (platform, fs) =>
    firstFound(
      () => onPath(platform, fs, ["cline"]),
      () => existing(fs, clineCliFile(platform)),
      () => clientFolder(fs, clineDataDir(platform)),
      () => clientFolder(fs, clineDir(platform)),
    ),
});

/** The Cline VS Code extension writer. */
export const clineVscodeWriter: ClientConfigWriter = jsonWriter({
  id: "cline-vscode",
  displayName: "Cline (VS Code)",
  scopes: ["user"],
  syntax: "json",
  expansion: null,
  serversKey: "mcpServers",
  renderEntry: (e) => ({ command: e.command, args: [...e.args] }),
  locate: extensionLocate,
  presence: (platform, fs) => existing(fs, extensionDir(platform)),
});
