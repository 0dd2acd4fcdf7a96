/**
 * The one module that knows about path syntax. Everything else asks it.
 *
 * Paths inside ra3 are absolute native paths (what `node:path` produces on the running OS) with their
 * real on-disk casing. Mod content is authored on Windows, so comparisons are case-insensitive and
 * separator-agnostic: use {@link pathKey} for map keys and {@link isInside} for containment, never
 * `startsWith` on raw strings. Paths shown to users and written into snapshots are relative to a root
 * and use `/` ({@link relativePosix}).
 */
import * as nodePath from "node:path";

/** The path flavour of the running OS. Tests can pass `nodePath.win32` or `nodePath.posix` explicitly. */
export type PathFlavour = typeof nodePath.posix;

/**
 * The running OS's flavour, as the very `nodePath.posix` or `nodePath.win32` object: the namespace import
 * itself is a different object from both, so comparing a flavour with it would say "not POSIX" on Linux.
 */
export const native: PathFlavour = nodePath.sep === "\\" ? nodePath.win32 : nodePath.posix;

/** True for the POSIX flavour, where `\` is an ordinary character that mod paths mean as a separator. */
function isPosix(flavour: PathFlavour): boolean {
  return flavour.sep === "/";
}

/**
 * Makes `p` absolute against `cwd` (default: the process working directory) and normalises it.
 * Accepts `\` as a separator on every OS, because mod files and Windows users write it.
 * @example toAbsolute("Data\\Mod.xml", "/mods/x") // "/mods/x/Data/Mod.xml" on Linux
 */
export function toAbsolute(p: string, cwd: string = process.cwd(), flavour: PathFlavour = native): string {
  const cleaned = isPosix(flavour) ? toPosix(p) : p;
  return flavour.resolve(cwd, cleaned);
}

/** `p` with every `\` turned into `/`. @example toPosix("a\\b") // "a/b" */
export function toPosix(p: string): string {
  return p.replace(/\\/g, "/");
}

/**
 * A case-folded, separator-normalised key for maps and equality: two paths that name the same file on
 * a case-insensitive Windows file system have the same key.
 * @example pathKey("C:\\Mods\\X\\Data") === pathKey("c:/mods/x/data/") // true
 */
export function pathKey(p: string): string {
  // Called several times per file per warm start (11k files at Corona scale): no regex unless needed.
  let s = p.indexOf("\\") < 0 ? p : toPosix(p);
  const n = s.length;
  if (
    n > 1 && s.charCodeAt(n - 1) === 0x2f && !(n === 3 && s.charCodeAt(1) === 0x3a && isAsciiLetter(s.charCodeAt(0)))
  ) {
    s = s.slice(0, -1);
  }
  return s.toLowerCase();
}

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** True when the two paths name the same file, ignoring case and separators. */
export function samePath(a: string, b: string): boolean {
  return pathKey(a) === pathKey(b);
}

/**
 * True when `child` equals `parent` or lies below it (case-insensitive, separator-agnostic).
 * @example isInside("/m/X/Data/a.xml", "/m/x") // true
 */
export function isInside(child: string, parent: string): boolean {
  return keyInside(pathKey(child), pathKey(parent));
}

/** {@link isInside} on two {@link pathKey}s (for callers that keep the keys of fixed folders). */
export function keyInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith("/") ? parent : parent + "/";
  return child.startsWith(prefix);
}

/**
 * `p` relative to `root`, with `/` separators, or null when `p` is not inside `root`.
 * Keeps the casing of `p`.
 * @example relativePosix("/m/x", "/m/x/Data/Mod.xml") // "Data/Mod.xml"
 */
export function relativePosix(root: string, p: string): string | null {
  if (!isInside(p, root)) return null;
  const r = toPosix(root).replace(/\/+$/, "");
  const s = toPosix(p);
  if (s.length <= r.length) return "";
  return s.slice(r.length).replace(/^\/+/, "");
}

/** The roots a path is shown relative to: the project's, then the SDK's. */
export interface DisplayRoots {
  readonly projectDir: string;
  readonly sdkDir: string | null;
}

/**
 * A path as shown in answers and messages: relative to the project (or SDK) root with `/`, else absolute
 * with `/`.
 * @example displayPath({ projectDir: "/m/x", sdkDir: null }, "/m/x/Data/Mod.xml") // "Data/Mod.xml"
 */
export function displayPath(roots: DisplayRoots, path: string): string {
  return relativePosix(roots.projectDir, path) ?? (roots.sdkDir ? relativePosix(roots.sdkDir, path) : null) ??
    toPosix(path);
}

/**
 * The folders ra3 reads below, as logical paths (the one confinement rule: docs/builder-rules.md, "What
 * ra3 reads"): the project root, the SDK root, and the project's parent and grandparent (the builder's
 * own `DATA:`/`ART:`/`AUDIO:` search folders besides the SDK's, see `search-paths.ts`). A parent that is
 * a file-system root (`/`, `C:\`, a share) is left out: it would admit the whole disk. First
 * occurrence kept, in that order.
 * @example allowedRoots({ projectDir: "/home/ann/Mods/X", sdkDir: null }) // ["/home/ann/Mods/X", "/home/ann/Mods", "/home/ann"]
 */
export function allowedRoots(roots: DisplayRoots, flavour: PathFlavour = native): string[] {
  const parent = flavour.dirname(roots.projectDir);
  const grandParent = flavour.dirname(parent);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const r of [roots.projectDir, roots.sdkDir, parent, grandParent]) {
    if (!r || seen.has(pathKey(r))) continue;
    if (r !== roots.projectDir && r !== roots.sdkDir && isFileSystemRoot(r, flavour)) continue;
    seen.add(pathKey(r));
    out.push(r);
  }
  return out;
}

/** True for `/`, `C:\`, `\\server\share\`: a folder that has no parent. */
export function isFileSystemRoot(p: string, flavour: PathFlavour = native): boolean {
  return flavour.dirname(p) === p || pathKey(flavour.parse(p).root) === pathKey(p);
}

/**
 * True when the absolute `path`, with `.` and `..` applied (and `\` read as a separator, as every
 * lookup reads it), lies inside one of `roots`. A relative path is inside none.
 * @example insideRoots("/m/X/Data/../../../etc/passwd", ["/m/X"]) // false
 */
export function insideRoots(path: string, roots: readonly string[], flavour: PathFlavour = native): boolean {
  const key = lexicalKey(path, flavour);
  return key !== null && roots.some((r) => keyInside(key, pathKey(r)));
}

/**
 * The {@link pathKey} of the absolute `path` with `.` and `..` applied (`\` a separator), or null for a
 * relative path: what {@link insideRoots} compares.
 */
export function lexicalKey(path: string, flavour: PathFlavour = native): string | null {
  const cleaned = isPosix(flavour) ? toPosix(path) : path;
  return flavour.isAbsolute(cleaned) ? pathKey(flavour.normalize(cleaned)) : null;
}

/** Joins segments with the running OS's separator (after turning `\` into `/` on POSIX). */
export function joinPath(base: string, ...segments: string[]): string {
  const cleaned = isPosix(native) ? segments.map(toPosix) : segments;
  return native.join(base, ...cleaned);
}

/** The folder containing `p`. */
export function parentDir(p: string): string {
  return native.dirname(p);
}

/** The last segment of `p` (accepts both separators). */
export function baseName(p: string): string {
  const s = toPosix(p).replace(/\/+$/, "");
  const i = s.lastIndexOf("/");
  return i < 0 ? s : s.slice(i + 1);
}

/** The lower-cased extension including the dot (`.xml`), or "" when there is none. */
export function extensionOf(p: string): string {
  const b = baseName(p);
  const i = b.lastIndexOf(".");
  return i <= 0 ? "" : b.slice(i).toLowerCase();
}

/** Splits a relative or absolute path into its non-empty segments (both separators accepted). */
export function segmentsOf(p: string): string[] {
  return toPosix(p).split("/").filter((s) => s.length > 0 && s !== ".");
}

/** True for `C:\x`, `C:/x`, `\\server\share` and `/x`. */
export function isAbsoluteAnyOs(p: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(p) || p.startsWith("\\\\") || p.startsWith("/");
}

/**
 * Walks from `start` to the file-system root, yielding each folder (start first), at most `limit` of them.
 */
export function* ancestors(start: string, limit = Infinity): Generator<string> {
  let cur = start;
  for (let n = 0; n < limit; n++) {
    yield cur;
    const up = native.dirname(cur);
    if (up === cur) return;
    cur = up;
  }
}

/**
 * A short, file-name-safe slug of the last two segments of `p` (for snapshot names).
 * @example slugOf("/home/u/Mods/My Mod") // "mods-my-mod"
 */
export function slugOf(p: string): string {
  const parts = segmentsOf(p).slice(-2).join("-");
  const slug = parts.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return slug.slice(0, 48) || "root";
}

/**
 * `p` (absolute) as a `file:` URI with every character outside `A–Z a–z 0–9 - _ . ~ /` and the drive
 * colon percent-encoded, so no `$`, `{`, `%` or space survives. Setup writes a path this way into a
 * client config when the client would rewrite it (`$HOME`, `${VAR}`, `{env:X}`); every command-line
 * path flag accepts the URI back ({@link fromFileUri}).
 * @example toFileUri("D:\\Mods\\$Money") // "file:///D:/Mods/%24Money"
 */
export function toFileUri(p: string): string {
  const slashed = toPosix(p);
  const rooted = /^[A-Za-z]:\//.test(slashed) ? `/${slashed}` : slashed;
  const encoded = rooted.replace(
    /[^A-Za-z0-9\-_.~/]/g,
    (c, i: number) =>
      c === ":" && i === 2 && /^\/[A-Za-z]$/.test(rooted.slice(0, 2))
        ? c
        : [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join(""),
  );
  return `file://${encoded}`;
}

/**
 * The path a `file:` URI names (percent-decoded; `file:///D:/x` gives `D:\x` with the `win32` flavour,
 * `D:/x` elsewhere), or null when `s` is not a `file:` URI or does not decode.
 * @example fromFileUri("file:///home/ann/mods/%24Money") // "/home/ann/mods/$Money"
 */
export function fromFileUri(s: string, flavour: PathFlavour = native): string | null {
  const m = /^file:\/\/(?:localhost)?(\/.*)$/i.exec(s);
  if (!m) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(m[1]);
  } catch {
    return null;
  }
  if (/^\/[A-Za-z]:(\/|$)/.test(decoded)) {
    const drive = decoded.slice(1);
    return flavour === nodePath.win32 ? drive.replace(/\//g, "\\") : drive;
  }
  return flavour === nodePath.win32 ? decoded.replace(/\//g, "\\") : decoded;
}
