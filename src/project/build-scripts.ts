/**
 * Build scripts as evidence of a mod's entry points. SDKs build mods with scripts that name the root
 * documents they hand to BinaryAssetBuilder: a Kane's Wrath SDK's `BuildMod.bat` compiles
 * `Mods\<mod>\Data\Static.xml`, EA's `DefaultScript.cs` compiles `data\mod.xml`. This module reads a
 * script's text (never runs it) and returns the XML paths it names inside a mod folder; which files
 * those are in the project is decided by the caller. Pure: the caller reads the bytes.
 */

/** File extensions read as build scripts (batch, PowerShell, shell, C# scripts), lower-case. */
export const BUILD_SCRIPT_EXTENSIONS: ReadonlySet<string> = new Set([".bat", ".cmd", ".ps1", ".sh", ".cs"]);

/** Scripts larger than this are not build scripts (or not worth reading). */
export const MAX_BUILD_SCRIPT_BYTES = 512 * 1024;

/** One XML path a script names inside a mod folder. */
export interface ScriptedEntry {
  /** 1-based line of the script. */
  readonly line: number;
  /** The path as written (C# escapes undone, concatenated pieces joined). */
  readonly written: string;
  /** The part inside the mod folder, `/`-separated (e.g. `Data/Static.xml`). */
  readonly inMod: string;
}

// A quoted path ending in .xml, or an unquoted run of path characters ending in .xml.
const XML_PATH = /"([^"\r\n]*?\.xml)"|'([^'\r\n]*?\.xml)'|([^\s"'<>|;,()=]+\.xml)\b/gi;
const COMMENT_LINE = /^\s*(?:rem\b|::|\/\/|#|\*)/i;
/** A path segment that is a script variable (`%1`, `%~1`, `%MOD%`, `$mod`, `{0}`, `" + mod + "`). */
const VARIABLE = /[%$!{}+]/;

/**
 * The XML paths `text` names inside a mod folder: after a `Mods` segment, the next segment must be
 * `modName` (any case) or a script variable; a relative path starting with `Data/` names a file of the
 * mod the script sits in (when `scriptInMod`). Comment lines are skipped.
 * @example entriesNamedByScript('binaryassetbuilder.exe "%cd%\\Mods\\%1\\Data\\Static.xml"', "MyMod", false) // [{ line: 1, written: "%cd%\\Mods\\%1\\Data\\Static.xml", inMod: "Data/Static.xml" }]
 */
export function entriesNamedByScript(text: string, modName: string, scriptInMod: boolean): ScriptedEntry[] {
  const out: ScriptedEntry[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    if (COMMENT_LINE.test(line) || !/\.xml/i.test(line)) continue;
    const joined = joinLiterals(line);
    XML_PATH.lastIndex = 0;
    for (let m = XML_PATH.exec(joined); m; m = XML_PATH.exec(joined)) {
      const written = m[1] ?? m[2] ?? m[3];
      const inMod = insideMod(written, modName, scriptInMod);
      if (inMod !== null) out.push({ line: n + 1, written, inMod });
    }
  }
  return out;
}

/**
 * A line with C# escapes undone and string concatenations joined (`"Mods\\" + modName + "\\data"` becomes
 * `"Mods/%modName%/data"`), so a path a C#/PowerShell script builds from pieces reads as one.
 */
function joinLiterals(line: string): string {
  // An escaped backslash is a separator; what is left of `\"` is an escaped quote.
  return line.replace(/\\\\/g, "/").replace(/\\"/g, "").replace(/"\s*\+\s*([A-Za-z_$][\w.$]*)\s*\+\s*"/g, "%$1%");
}

/** The part of `written` inside the mod folder, or null when it is not a path into this mod. */
function insideMod(written: string, modName: string, scriptInMod: boolean): string | null {
  // C# literals double their backslashes; both separators are accepted.
  const segs = written.replace(/\\\\/g, "\\").split(/[\\/]+/).filter((s) => s !== "" && s !== ".");
  const mods = segs.findIndex((s) => s.toLowerCase() === "mods");
  if (mods >= 0 && mods + 2 < segs.length) {
    const name = segs[mods + 1];
    if (name.toLowerCase() !== modName.toLowerCase() && !VARIABLE.test(name)) return null;
    const rest = segs.slice(mods + 2);
    return rest.some((s) => VARIABLE.test(s)) ? null : rest.join("/");
  }
  if (scriptInMod && mods < 0 && segs.length >= 2 && segs[0].toLowerCase() === "data" && !/^[A-Za-z]:/.test(written)) {
    return segs.some((s) => VARIABLE.test(s)) ? null : segs.join("/");
  }
  return null;
}
