/**
 * The ownership marker inside each installed skill copy, `.ra3-managed.json`: the version and the
 * SHA-256 of every file as ra3 wrote it. A file whose content no longer matches its hash was changed by
 * the user and is never overwritten or deleted. The one reader of the marker, shared by the installer,
 * setup's dry run and `doctor`, so the three never disagree about whose a file is.
 */
import { createHash } from "node:crypto";
import type { FileSystemPort } from "../disk/port.ts";

/** The ownership marker inside each installed copy. */
export const SKILL_MARKER_FILE = ".ra3-managed.json";

/** What a marker says: the version installed and each skill-relative path (with `/`) → SHA-256. */
export interface SkillMarker {
  readonly version: string;
  readonly files: Readonly<Record<string, string>>;
}

/** A marker read from a skill folder. */
export interface SkillMarkerRead {
  /** The marker, or null when there is none or it is unusable. */
  readonly marker: SkillMarker | null;
  /** Set when a marker file exists but cannot be used (not JSON, not ra3's). */
  readonly problem: string | null;
}

/** The lower-case hex SHA-256 of `bytes`. */
export function sha256Of(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Reads the marker of the skill folder `dir`. A missing marker is `{ marker: null, problem: null }`;
 * an unreadable or foreign one names why. Throws only for environment failures reading the file.
 * @example readSkillMarker(fs, "/home/u/.agents/skills/ra3-mod-xml").marker?.version // "0.1.0"
 */
export function readSkillMarker(fs: FileSystemPort, dir: string): SkillMarkerRead {
  const bytes = fs.readFile(fs.path.join(dir, SKILL_MARKER_FILE));
  if (bytes === null) return { marker: null, problem: null };
  try {
    const raw = JSON.parse(new TextDecoder().decode(bytes).replace(/^\uFEFF/, "")) as unknown;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new Error("not an object");
    const o = raw as Record<string, unknown>;
    if (o.tool !== "ra3") return { marker: null, problem: `${SKILL_MARKER_FILE} does not belong to ra3` };
    const files: Record<string, string> = {};
    if (typeof o.files === "object" && o.files !== null) {
      for (const [k, v] of Object.entries(o.files as Record<string, unknown>)) if (typeof v === "string") files[k] = v;
    }
    return { marker: { version: typeof o.version === "string" ? o.version : "", files }, problem: null };
  } catch (e) {
    return { marker: null, problem: `${SKILL_MARKER_FILE} is not valid JSON (${(e as Error).message})` };
  }
}

/** The marker file's bytes for `version` and `files` (paths sorted, so equal markers are equal bytes). */
export function skillMarkerBytes(version: string, files: Readonly<Record<string, string>>): Uint8Array {
  const sorted: Record<string, string> = {};
  for (const k of Object.keys(files).sort()) sorted[k] = files[k];
  return new TextEncoder().encode(JSON.stringify({ tool: "ra3", version, files: sorted }, null, 2) + "\n");
}

/** True when two markers record the same version and the same hashes. */
export function sameMarker(a: SkillMarker | null, b: SkillMarker): boolean {
  if (a === null || a.version !== b.version) return false;
  const ka = Object.keys(a.files).sort();
  const kb = Object.keys(b.files).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a.files[k] === b.files[k]);
}
