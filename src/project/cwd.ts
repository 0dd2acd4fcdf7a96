/**
 * The working directory as the user reached it. `process.cwd()` is the physical path (every symlink or
 * junction resolved); a shell keeps the logical one in `$PWD`. Mods include their own files as
 * `DATA:<ModFolderName>/…`, so a mod entered through a link must be indexed under the link's name: the
 * logical path is used whenever `$PWD` names the same folder as the physical one.
 */
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";

/**
 * `$PWD` when it is an absolute path to the same folder as `physical` (same device and inode), else
 * `physical`.
 * @example logicalCwd({ PWD: "/home/u/mods/MyMod" }, "/data/real/MyMod-v2") // "/home/u/mods/MyMod" when it is a link to it
 */
export function logicalCwd(
  env: Record<string, string | undefined>,
  physical: string = process.cwd(),
): string {
  const pwd = env.PWD;
  if (!pwd || !isAbsolute(pwd) || pwd === physical) return physical;
  try {
    const a = statSync(pwd);
    const b = statSync(physical);
    return a.dev === b.dev && a.ino === b.ino ? pwd : physical;
  } catch {
    return physical;
  }
}
