/**
 * Qwen Code (a Gemini CLI fork): `~/.qwen/settings.json` (`$QWEN_HOME` replaces `~/.qwen`), project
 * `.qwen/settings.json`, key `mcpServers` with Gemini's entry shape. Verified with Qwen Code 0.24
 * (docs/clients.md): comments accepted, a trailing comma refused (it then saves the file aside as
 * `settings.json.corrupted`); `$VAR`/`${VAR}` expanded in `args`; folder trust works as Gemini's but is off
 * unless `security.folderTrust.enabled` is true.
 */
import { envVar } from "../platform.ts";
import { geminiFamilyWriter } from "./gemini.ts";
import type { ClientConfigWriter } from "./types.ts";

/** The Qwen Code writer. */
export const qwenWriter: ClientConfigWriter = geminiFamilyWriter({
  id: "qwen",
  displayName: "Qwen Code",
  dir: (platform) => {
    const dir = envVar(platform, "QWEN_HOME");
    return dir && platform.pathFlavour.isAbsolute(dir) ? dir : platform.pathFlavour.join(platform.home, ".qwen");
  },
  projectFolder: ".qwen",
  binary: "qwen",
  trustFileVariable: "QWEN_CODE_TRUSTED_FOLDERS_PATH",
  trustByDefault: false,
});
