/**
 * The install receipt `<home>/install.json`: everything setup wrote (the installed binary, each client
 * config entry, each skill folder) plus a short log, so `doctor` can check it and `uninstall` can
 * revert it. The record helpers are pure (they return a new receipt); {@link writeReceipt} persists it
 * atomically. A corrupt receipt is reported, never overwritten.
 */
import { getNodeValue, type ParseError, parseTree } from "jsonc-parser";
import { writeFileAtomic } from "../disk/atomic.ts";
import { describeFsError, type FileSystemPort } from "../disk/port.ts";
import { lineColumn } from "./clients/config-text.ts";
import { samePath } from "../project/paths.ts";

/** The receipt's own format version (bumped on incompatible changes). */
const RECEIPT_FORMAT = 1;
/** How many log entries a receipt keeps (oldest dropped first). */
export const RECEIPT_LOG_LIMIT = 200;

export interface BinaryRecord {
  readonly path: string;
  readonly sha256?: string;
}

export interface ConfigRecord {
  /** The client id (`claude-desktop`, `codex`, …). */
  readonly client: string;
  readonly scope: "user" | "project";
  readonly file: string;
  readonly entryName: string;
  /** True when setup created the file, so uninstall may delete it once our entry is the only content. */
  readonly createdFile: boolean;
  /** The first backup made of the user's file before setup changed it. */
  readonly backup?: string;
  /**
   * True when setup added the servers container (`"mcpServers": {}`) itself, so uninstall may drop it
   * once empty; false when the user already had one (kept, even empty). Absent in receipts from before
   * this was recorded: then only a file ra3 created loses its emptied container.
   */
  readonly createdContainer?: boolean;
}

/** A folder setup added to a client's trust file (Gemini CLI, Qwen Code). */
export interface TrustRecord {
  readonly client: string;
  /** The trust file. */
  readonly file: string;
  /** The key ra3 added, exactly as written. */
  readonly folder: string;
  /** True when setup created the trust file. */
  readonly createdFile: boolean;
}

export interface SkillRecord {
  /** The skill name, e.g. `ra3-mod-xml`. */
  readonly name: string;
  /** The install target (`agents`, `claude`, `project-agents`, …, or `dir`). */
  readonly target: string;
  /** The skill folder written. */
  readonly dir: string;
}

export interface LogEntry {
  /** ISO-8601 time. */
  readonly at: string;
  /** What happened, e.g. `config.add`, `binary.install`. */
  readonly action: string;
  readonly detail: string;
}

export interface InstallReceipt {
  readonly format: number;
  /** The ra3 version that last wrote the receipt. */
  readonly version: string;
  readonly binary: BinaryRecord | null;
  readonly configs: readonly ConfigRecord[];
  readonly skills: readonly SkillRecord[];
  /** Trust-file entries setup added (absent in receipts from before trust was handled). */
  readonly trust?: readonly TrustRecord[];
  readonly log: readonly LogEntry[];
}

export type ReceiptRead =
  | { readonly ok: true; readonly receipt: InstallReceipt; readonly existed: boolean }
  | { readonly ok: false; readonly error: string };

/** The path of the receipt in `home`. */
export function receiptPath(fs: FileSystemPort, home: string): string {
  return fs.path.join(home, "install.json");
}

/** A receipt recording nothing yet. */
export function emptyReceipt(version: string): InstallReceipt {
  return { format: RECEIPT_FORMAT, version, binary: null, configs: [], skills: [], log: [] };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Checks the shape of a parsed receipt; returns what is wrong, or the receipt. */
function validate(value: unknown): InstallReceipt | string {
  if (!isObject(value)) return "the top level is not an object";
  if (value.format !== RECEIPT_FORMAT) return `"format" is ${JSON.stringify(value.format)}, expected ${RECEIPT_FORMAT}`;
  if (typeof value.version !== "string") return `"version" is not a string`;
  const binary = value.binary ?? null;
  if (
    binary !== null &&
    !(isObject(binary) && typeof binary.path === "string" &&
      (binary.sha256 === undefined || typeof binary.sha256 === "string"))
  ) {
    return `"binary" must be null or {"path": string, "sha256"?: string}`;
  }
  for (const key of ["configs", "skills", "log"] as const) {
    if (!Array.isArray(value[key])) return `"${key}" is not a list`;
  }
  const configs = value.configs as unknown[];
  for (const [i, c] of configs.entries()) {
    if (
      !isObject(c) ||
      typeof c.client !== "string" ||
      (c.scope !== "user" && c.scope !== "project") ||
      typeof c.file !== "string" ||
      typeof c.entryName !== "string" ||
      typeof c.createdFile !== "boolean" ||
      (c.backup !== undefined && typeof c.backup !== "string") ||
      (c.createdContainer !== undefined && typeof c.createdContainer !== "boolean")
    ) {
      return `configs[${i}] is not a config record`;
    }
  }
  for (const [i, s] of (value.skills as unknown[]).entries()) {
    if (!isObject(s) || typeof s.name !== "string" || typeof s.target !== "string" || typeof s.dir !== "string") {
      return `skills[${i}] is not a skill record`;
    }
  }
  if (value.trust !== undefined && !Array.isArray(value.trust)) return `"trust" is not a list`;
  for (const [i, t] of ((value.trust ?? []) as unknown[]).entries()) {
    if (
      !isObject(t) || typeof t.client !== "string" || typeof t.file !== "string" || typeof t.folder !== "string" ||
      typeof t.createdFile !== "boolean"
    ) {
      return `trust[${i}] is not a trust record`;
    }
  }
  for (const [i, l] of (value.log as unknown[]).entries()) {
    if (!isObject(l) || typeof l.at !== "string" || typeof l.action !== "string" || typeof l.detail !== "string") {
      return `log[${i}] is not a log entry`;
    }
  }
  return value as unknown as InstallReceipt;
}

/**
 * Reads `<home>/install.json`. A missing file gives an empty receipt (`existed: false`); an unreadable,
 * invalid or foreign file gives an error naming the file, the position and what to do.
 */
export function readReceipt(fs: FileSystemPort, home: string, version: string): ReceiptRead {
  const file = receiptPath(fs, home);
  let bytes: Uint8Array | null;
  try {
    bytes = fs.readFile(file);
  } catch (err) {
    return {
      ok: false,
      error: `${file} cannot be read (${describeFsError(err)}); fix its permissions and run the command again.`,
    };
  }
  if (bytes === null) return { ok: true, receipt: emptyReceipt(version), existed: false };
  const advice =
    "ra3 left it unchanged; move it aside (setup then starts a new receipt, and uninstall can no longer revert what the old one recorded) and run the command again.";
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    return { ok: false, error: `${file} is not a valid ra3 install receipt (not UTF-8 text). ${advice}` };
  }
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0 || tree === undefined) {
    const at = lineColumn(text, errors[0]?.offset ?? 0);
    return {
      ok: false,
      error: `${file}:${at.line}:${at.column}: not a valid ra3 install receipt (not valid JSON). ${advice}`,
    };
  }
  const checked = validate(getNodeValue(tree));
  if (typeof checked === "string") {
    return { ok: false, error: `${file} is not a valid ra3 install receipt (${checked}). ${advice}` };
  }
  return { ok: true, receipt: checked, existed: true };
}

/** The receipt as the JSON text written to disk (stable key order, two-space indent, final newline). */
export function renderReceipt(receipt: InstallReceipt): string {
  const ordered = {
    format: receipt.format,
    version: receipt.version,
    binary: receipt.binary === null
      ? null
      : { path: receipt.binary.path, ...(receipt.binary.sha256 ? { sha256: receipt.binary.sha256 } : {}) },
    configs: receipt.configs.map((c) => ({
      client: c.client,
      scope: c.scope,
      file: c.file,
      entryName: c.entryName,
      createdFile: c.createdFile,
      ...(c.backup ? { backup: c.backup } : {}),
      ...(c.createdContainer !== undefined ? { createdContainer: c.createdContainer } : {}),
    })),
    skills: receipt.skills.map((s) => ({ name: s.name, target: s.target, dir: s.dir })),
    ...(receipt.trust && receipt.trust.length
      ? {
        trust: receipt.trust.map((t) => ({
          client: t.client,
          file: t.file,
          folder: t.folder,
          createdFile: t.createdFile,
        })),
      }
      : {}),
    log: receipt.log.map((l) => ({ at: l.at, action: l.action, detail: l.detail })),
  };
  return JSON.stringify(ordered, null, 2) + "\n";
}

/** Writes the receipt to `<home>/install.json` atomically; returns the file path. */
export function writeReceipt(fs: FileSystemPort, home: string, receipt: InstallReceipt): string {
  const file = receiptPath(fs, home);
  writeFileAtomic(fs, file, renderReceipt(receipt));
  return file;
}

// Case-insensitive: the same record written twice with differently cased Windows paths is one file.
// One file can hold several entries of ours (`--name`), so the entry name is part of the identity.
function sameConfig(a: ConfigRecord, client: string, scope: string, file: string, entryName: string): boolean {
  return a.client === client && a.scope === scope && samePath(a.file, file) && a.entryName === entryName;
}

/**
 * The record of the entry `entryName` that ra3 wrote into `file`, or undefined: an entry without one
 * is the user's, never replaced or removed.
 */
export function configRecordOf(
  receipt: InstallReceipt,
  file: string,
  entryName: string,
): ConfigRecord | undefined {
  return receipt.configs.find((c) => samePath(c.file, file) && c.entryName === entryName);
}

/**
 * The receipt with `record` added, replacing a record for the same client, scope and file. A replaced
 * record's `createdFile: true`, `createdContainer: true` and first `backup` are kept: they describe the
 * state before ra3.
 */
export function withConfigRecord(receipt: InstallReceipt, record: ConfigRecord): InstallReceipt {
  const old = receipt.configs.find((c) => sameConfig(c, record.client, record.scope, record.file, record.entryName));
  const backup = old?.backup ?? record.backup;
  const container = old?.createdContainer === true || record.createdContainer === true
    ? true
    : record.createdContainer ?? old?.createdContainer;
  const merged: ConfigRecord = old
    ? {
      ...record,
      createdFile: old.createdFile || record.createdFile,
      ...(backup !== undefined ? { backup } : {}),
      ...(container !== undefined ? { createdContainer: container } : {}),
    }
    : record;
  const rest = receipt.configs.filter((c) => c !== old);
  return { ...receipt, configs: [...rest, merged] };
}

/** The receipt without the record for `client`/`scope`/`file`/`entryName`. */
export function withoutConfigRecord(
  receipt: InstallReceipt,
  client: string,
  scope: string,
  file: string,
  entryName: string,
): InstallReceipt {
  return { ...receipt, configs: receipt.configs.filter((c) => !sameConfig(c, client, scope, file, entryName)) };
}

/** The receipt with a trust record added (replacing one for the same client, file and folder). */
export function withTrustRecord(receipt: InstallReceipt, record: TrustRecord): InstallReceipt {
  const same = (t: TrustRecord) =>
    t.client === record.client && samePath(t.file, record.file) && t.folder === record.folder;
  const old = (receipt.trust ?? []).find(same);
  const merged = old ? { ...record, createdFile: old.createdFile || record.createdFile } : record;
  return { ...receipt, trust: [...(receipt.trust ?? []).filter((t) => !same(t)), merged] };
}

/** The receipt without the trust record for `record`'s client, file and folder. */
export function withoutTrustRecord(
  receipt: InstallReceipt,
  record: Pick<TrustRecord, "client" | "file" | "folder">,
): InstallReceipt {
  const trust = (receipt.trust ?? []).filter((t) =>
    !(t.client === record.client && samePath(t.file, record.file) && t.folder === record.folder)
  );
  return { ...receipt, trust };
}

/** The receipt with `record` added, replacing a record for the same skill folder. */
export function withSkillRecord(receipt: InstallReceipt, record: SkillRecord): InstallReceipt {
  return { ...receipt, skills: [...receipt.skills.filter((s) => !samePath(s.dir, record.dir)), record] };
}

/** The receipt without the skill record for `dir`. */
export function withoutSkillRecord(receipt: InstallReceipt, dir: string): InstallReceipt {
  return { ...receipt, skills: receipt.skills.filter((s) => !samePath(s.dir, dir)) };
}

/** The receipt with the installed binary recorded (or cleared with null). */
export function withBinary(receipt: InstallReceipt, binary: BinaryRecord | null): InstallReceipt {
  return { ...receipt, binary };
}

/** The receipt with a log entry appended (keeping the last {@link RECEIPT_LOG_LIMIT}) and `version` updated. */
export function withLogEntry(
  receipt: InstallReceipt,
  action: string,
  detail: string,
  now: Date = new Date(),
  version?: string,
): InstallReceipt {
  const log = [...receipt.log, { at: now.toISOString(), action, detail }].slice(-RECEIPT_LOG_LIMIT);
  return { ...receipt, log, version: version ?? receipt.version };
}
