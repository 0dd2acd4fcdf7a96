/**
 * Qwen Code (a Gemini CLI fork): `~/.qwen/settings.json` (`$QWEN_HOME` replaces `~/.qwen`), project
 * `.qwen/settings.json`, key `mcpServers` with Gemini's entry shape. Verified with Qwen Code 0.24
 * (docs/clients.md): comments accepted, a trailing comma refused (it then saves the file aside as
 * `settings.json.corrupted`); `$VAR`/`${VAR}` expanded in `args`; folder trust works as Gemini's but is off
 * unless `security.folderTrust.enabled` is true.
 */
import type { FileSystemPort } from "../../disk/port.ts";
import { envVar, type Platform } from "../platform.ts";
import { shellStyleExpansion } from "./expansion.ts";
import { fixedLocation, jsonWriter, noProjectLocation } from "./json-dialect.ts";
import { clientFolder, firstFound, onPath } from "./presence.ts";
import { folderTrustSetting } from "./trust.ts";
import type { ClientConfigWriter, ConfigLocation, Scope } from "./types.ts";

/** `~/.qwen`, or `$QWEN_HOME`. */
function qwenDir(platform: Platform): string {
  const dir = envVar(platform, "QWEN_HOME");
  return dir && platform.pathFlavour.isAbsolute(dir) ? dir : platform.pathFlavour.join(platform.home, ".qwen");
}

function locate(platform: Platform, scope: Scope, _fs: FileSystemPort, projectDir?: string): ConfigLocation {
  const j = platform.pathFlavour.join;
  if (scope === "project") {
    return projectDir ? fixedLocation(j(projectDir, ".qwen", "settings.json")) : noProjectLocation("Qwen Code");
  }
  return fixedLocation(j(qwenDir(platform), "settings.json"));
}

/** The Qwen Code writer. */
export const qwenWriter: ClientConfigWriter = jsonWriter({
  id: "qwen",
  displayName: "Qwen Code",
  scopes: ["user", "project"],
  syntax: "jsonc",
  refusesTrailingCommas: true,
  expansion: shellStyleExpansion,
  serversKey: "mcpServers",
  renderEntry: (e) => ({ command: e.command, args: [...e.args] }),
  locate,
  presence: (platform, fs) =>
    firstFound(() => clientFolder(fs, qwenDir(platform)), () => onPath(platform, fs, ["qwen"])),
  trust: {
    file: (platform) => {
      const override = envVar(platform, "QWEN_CODE_TRUSTED_FOLDERS_PATH");
      return override && platform.pathFlavour.isAbsolute(override)
        ? override
        : platform.pathFlavour.join(qwenDir(platform), "trustedFolders.json");
    },
    enabled: (settings) => folderTrustSetting(settings) ?? false,
    howToTrust: "trust it in Qwen Code, or run ra3 setup --client qwen",
  },
});
