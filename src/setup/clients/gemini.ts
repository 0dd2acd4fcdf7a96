/**
 * Gemini CLI: `~/.gemini/settings.json` (`$GEMINI_CLI_HOME/.gemini` when set), project
 * `.gemini/settings.json`, key `mcpServers`. The file also holds the CLI's other settings. Verified with
 * Gemini CLI 0.61 (docs/clients.md): comments are accepted, a trailing comma makes it refuse the whole
 * file; `$VAR` and `${VAR}` in `args` are expanded; every MCP server is disabled in a folder the user
 * has not trusted (`trustedFolders.json`, folder trust on unless `security.folderTrust.enabled` is false).
 * Its forks (Qwen Code) share the dialect: {@link geminiFamilyWriter}.
 */
import type { FileSystemPort } from "../../disk/port.ts";
import { envVar, type Platform } from "../platform.ts";
import { shellStyleExpansion } from "./expansion.ts";
import { fixedLocation, jsonWriter, noProjectLocation } from "./json-dialect.ts";
import { clientFolder, firstFound, onPath } from "./presence.ts";
import { folderTrustSetting } from "./trust.ts";
import type { ClientConfigWriter, ClientId, ConfigLocation, Scope } from "./types.ts";

/** What tells one Gemini-family client from another. */
export interface GeminiFamily {
  readonly id: ClientId;
  readonly displayName: string;
  /** The client's user folder (`~/.gemini`, `~/.qwen`), environment overrides applied. */
  dir(platform: Platform): string;
  /** The project folder's settings folder (`.gemini`, `.qwen`). */
  readonly projectFolder: string;
  readonly binary: string;
  /** The variable that moves the trust file. */
  readonly trustFileVariable: string;
  /** Whether folder trust is on when the settings do not say. */
  readonly trustByDefault: boolean;
}

/** A writer for Gemini CLI or a fork: `<dir>/settings.json`, its trust file beside it. */
export function geminiFamilyWriter(c: GeminiFamily): ClientConfigWriter {
  const locate = (platform: Platform, scope: Scope, _fs: FileSystemPort, projectDir?: string): ConfigLocation => {
    const j = platform.pathFlavour.join;
    if (scope === "project") {
      return projectDir
        ? fixedLocation(j(projectDir, c.projectFolder, "settings.json"))
        : noProjectLocation(c.displayName);
    }
    return fixedLocation(j(c.dir(platform), "settings.json"));
  };
  return jsonWriter({
    id: c.id,
    displayName: c.displayName,
    scopes: ["user", "project"],
    syntax: "jsonc",
    refusesTrailingCommas: true,
    expansion: shellStyleExpansion,
    serversKey: "mcpServers",
    renderEntry: (e) => ({ command: e.command, args: [...e.args] }),
    locate,
    presence: (platform, fs) =>
      firstFound(() => clientFolder(fs, c.dir(platform)), () => onPath(platform, fs, [c.binary])),
    trust: {
      file: (platform) => {
        const override = envVar(platform, c.trustFileVariable);
        return override && platform.pathFlavour.isAbsolute(override)
          ? override
          : platform.pathFlavour.join(c.dir(platform), "trustedFolders.json");
      },
      enabled: (settings) => folderTrustSetting(settings) ?? c.trustByDefault,
      howToTrust: `trust it in ${c.displayName}${
        c.id === "gemini" ? " (/permissions)" : ""
      }, or run ra3 setup --client ${c.id}`,
    },
  });
}

/** The Gemini CLI writer. */
export const geminiWriter: ClientConfigWriter = geminiFamilyWriter({
  id: "gemini",
  displayName: "Gemini CLI",
  // `$GEMINI_CLI_HOME` replaces the home folder that holds `.gemini`.
  dir: (platform) => {
    const home = envVar(platform, "GEMINI_CLI_HOME");
    return platform.pathFlavour.join(home && platform.pathFlavour.isAbsolute(home) ? home : platform.home, ".gemini");
  },
  projectFolder: ".gemini",
  binary: "gemini",
  trustFileVariable: "GEMINI_CLI_TRUSTED_FOLDERS_PATH",
  trustByDefault: true,
});
