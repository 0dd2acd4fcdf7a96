/**
 * Gemini CLI: `~/.gemini/settings.json` (`$GEMINI_CLI_HOME/.gemini` when set), project
 * `.gemini/settings.json`, key `mcpServers`. The file also holds the CLI's other settings. Verified with
 * Gemini CLI 0.61 (docs/clients.md): comments are accepted, a trailing comma makes it refuse the whole
 * file; `$VAR` and `${VAR}` in `args` are expanded; every MCP server is disabled in a folder the user
 * has not trusted (`trustedFolders.json`, folder trust on unless `security.folderTrust.enabled` is false).
 */
import type { FileSystemPort } from "../../disk/port.ts";
import { envVar, type Platform } from "../platform.ts";
import { shellStyleExpansion } from "./expansion.ts";
import { fixedLocation, jsonWriter, noProjectLocation } from "./json-dialect.ts";
import { clientFolder, firstFound, onPath } from "./presence.ts";
import { folderTrustSetting } from "./trust.ts";
import type { ClientConfigWriter, ConfigLocation, Scope } from "./types.ts";

/** `~/.gemini`, or `$GEMINI_CLI_HOME/.gemini` (Gemini's own home override). */
function geminiDir(platform: Platform): string {
  const home = envVar(platform, "GEMINI_CLI_HOME");
  const base = home && platform.pathFlavour.isAbsolute(home) ? home : platform.home;
  return platform.pathFlavour.join(base, ".gemini");
}

function locate(platform: Platform, scope: Scope, _fs: FileSystemPort, projectDir?: string): ConfigLocation {
  const j = platform.pathFlavour.join;
  if (scope === "project") {
    return projectDir ? fixedLocation(j(projectDir, ".gemini", "settings.json")) : noProjectLocation("Gemini CLI");
  }
  return fixedLocation(j(geminiDir(platform), "settings.json"));
}

/** The Gemini CLI writer. */
export const geminiWriter: ClientConfigWriter = jsonWriter({
  id: "gemini",
  displayName: "Gemini CLI",
  scopes: ["user", "project"],
  syntax: "jsonc",
  refusesTrailingCommas: true,
  expansion: shellStyleExpansion,
  serversKey: "mcpServers",
  renderEntry: (e) => ({ command: e.command, args: [...e.args] }),
  locate,
  presence: (platform, fs) =>
    firstFound(() => clientFolder(fs, geminiDir(platform)), () => onPath(platform, fs, ["gemini"])),
  trust: {
    file: (platform) => {
      const override = envVar(platform, "GEMINI_CLI_TRUSTED_FOLDERS_PATH");
      return override && platform.pathFlavour.isAbsolute(override)
        ? override
        : platform.pathFlavour.join(geminiDir(platform), "trustedFolders.json");
    },
    enabled: (settings) => folderTrustSetting(settings) ?? true,
    howToTrust: "trust it in Gemini CLI (/permissions), or run ra3 setup --client gemini",
  },
});
