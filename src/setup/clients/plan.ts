/**
 * Plan, then apply: a plan reads the client's file and computes the new text and a diff without
 * writing anything (that is `--dry-run`); applying re-reads the file, refuses if it changed since the
 * plan, backs it up, writes atomically and records the change in the install receipt.
 *
 * Ownership comes from the receipt: an entry of that name that ra3 did not write is the user's, and is
 * never replaced (the plan is an error offering `--name`) nor, later, removed. Every file-system failure
 * while locating or reading (a link loop, an unreadable folder) is an error value for that client only.
 */
import { writeFileAtomic } from "../../disk/atomic.ts";
import { unifiedDiff } from "../diff.ts";
import { describeFsError, type FileSystemPort } from "../../disk/port.ts";
import { type Platform } from "../platform.ts";
import {
  type ConfigRecord,
  configRecordOf,
  type InstallReceipt,
  withConfigRecord,
  withLogEntry,
  withoutConfigRecord,
} from "../receipt.ts";
import { jsonEqual } from "./config-text.ts";
import { writerFor } from "./registry.ts";
import type { ClientConfigWriter, ClientId, ConfigProblem, Scope, ServerEntry } from "./types.ts";

/**
 * `create`/`update`/`remove` write the file, `delete` deletes a file ra3 created and emptied,
 * `unchanged`/`absent` write nothing (already as wanted), `error` writes nothing (see `error`).
 */
export type ConfigChange = "create" | "update" | "unchanged" | "remove" | "delete" | "absent" | "error";

export interface ConfigPlan {
  readonly client: ClientId;
  readonly displayName: string;
  readonly scope: Scope;
  readonly action: "add" | "remove";
  readonly entryName: string;
  /** The file to change, or null when none could be chosen (then `error` says why). */
  readonly file: string | null;
  /** Every path considered for the file. */
  readonly candidates: readonly string[];
  readonly change: ConfigChange;
  /** The file's text as read (BOM included), or null when it does not exist. */
  readonly before: string | null;
  /** The text to write, or null when nothing is written or the file is deleted. */
  readonly after: string | null;
  /** Unified diff from `before` to `after` ("" when nothing changes). */
  readonly diff: string;
  /** One or two sentences: what is wrong, which file, what to do. Null unless `change` is `error`. */
  readonly error: string | null;
  readonly warnings: readonly string[];
  readonly notes: readonly string[];
  /** For removals: ra3 created the file, so it may delete it when nothing else is left. */
  readonly createdFile: boolean;
  /**
   * Whose the entry is: `new` (there is none yet), `ours` (the receipt says ra3 wrote it) or `user`
   * (ra3 did not write it: an `update` is then refused, and an identical one is left unrecorded).
   */
  readonly ownership: "new" | "ours" | "user";
  /** For additions: the servers container is not there yet, so ra3 adds it (and may drop it on uninstall). */
  readonly createsContainer: boolean;
}

export type ApplyResult =
  | { readonly ok: true; readonly receipt: InstallReceipt; readonly written: boolean; readonly backup: string | null }
  | { readonly ok: false; readonly receipt: InstallReceipt; readonly error: string };

const lenient = new TextDecoder("utf-8", { ignoreBOM: true });

/** `file:line:col: message. ra3 left the file unchanged; …` — the error text for a config problem. */
export function formatProblem(file: string, p: ConfigProblem, fixAdvice = true): string {
  const where = p.line !== null ? `${file}:${p.line}:${p.column ?? 1}` : file;
  const advice = fixAdvice ? "; fix it (or move it aside) and run setup again." : ".";
  return `${where}: ${p.message}. ra3 left the file unchanged${advice}`;
}

function basePlan(writer: ClientConfigWriter, scope: Scope, action: "add" | "remove", entryName: string) {
  return {
    client: writer.id,
    displayName: writer.displayName,
    scope,
    action,
    entryName,
    file: null as string | null,
    candidates: [] as readonly string[],
    before: null as string | null,
    after: null as string | null,
    diff: "",
    error: null as string | null,
    warnings: [] as readonly string[],
    notes: [] as readonly string[],
    createdFile: false,
    ownership: "new" as ConfigPlan["ownership"],
    createsContainer: false,
  };
}

function failed(plan: ReturnType<typeof basePlan>, error: string): ConfigPlan {
  return { ...plan, change: "error", error, after: null, diff: "" };
}

/** A second name to offer when `name` is taken by the user's own entry. */
function alternativeName(name: string): string {
  return name === "ra3" ? "ra3-index" : `${name}-2`;
}

/**
 * Plans adding (or updating) `entry` in the client's config for `scope`, without writing anything.
 * `receipt` says which entries ra3 wrote: any other entry of that name is the user's.
 * @example const plan = planConfigChange(writerFor("cursor")!, currentPlatform(), "user", entry, nodeFileSystem(), receipt);
 *          if (plan.change === "error") console.error(plan.error); else process.stdout.write(plan.diff);
 */
export function planConfigChange(
  writer: ClientConfigWriter,
  platform: Platform,
  scope: Scope,
  entry: ServerEntry,
  fs: FileSystemPort,
  receipt: InstallReceipt,
  options: { readonly projectDir?: string } = {},
): ConfigPlan {
  let plan = basePlan(writer, scope, "add", entry.name);
  if (!writer.scopes.includes(scope)) {
    return failed(plan, `${writer.displayName} has no ${scope}-level configuration file.`);
  }
  let location;
  try {
    location = writer.locate(platform, scope, fs, options.projectDir);
  } catch (err) {
    // A link loop or a folder ra3 may not look into, met while locating the file: this client fails alone.
    return failed(
      plan,
      `could not find ${writer.displayName}'s configuration file: ${
        describeFsError(err)
      }. ra3 changed nothing for ${writer.displayName}; fix the path (or its permissions) and run setup again.`,
    );
  }
  plan = { ...plan, candidates: location.candidates, notes: location.notes, file: location.file };
  if (location.file === null) {
    return failed(plan, location.problem ?? `could not find ${writer.displayName}'s configuration file.`);
  }
  const file = location.file;
  let bytes: Uint8Array | null;
  try {
    bytes = fs.readFile(file);
  } catch (err) {
    return failed(plan, `could not read ${file}: ${describeFsError(err)}.`);
  }
  const before = bytes === null ? null : lenient.decode(bytes);
  plan = { ...plan, before };
  const read = writer.read(bytes ?? new Uint8Array());
  if (!read.ok) return failed(plan, formatProblem(file, read.problem));
  plan = { ...plan, warnings: read.doc.warnings };
  const found = writer.inspect(read.doc, entry.name);
  const ours = configRecordOf(receipt, file, entry.name) !== undefined;
  const ownership: ConfigPlan["ownership"] = found.entry === undefined ? "new" : ours ? "ours" : "user";
  plan = { ...plan, ownership, createsContainer: !found.container };
  if (ownership === "user") {
    if (jsonEqual(found.entry, writer.renderEntry(entry))) {
      return {
        ...plan,
        change: "unchanged",
        after: null,
        notes: [
          ...plan.notes,
          `the "${entry.name}" entry there was not written by ra3 but is exactly what ra3 would write; left as it is, and uninstall will leave it too.`,
        ],
      };
    }
    return failed(
      plan,
      `${file} already has a server named "${entry.name}" that ra3 did not write; ra3 left it as it is. Run ra3 setup --name ${
        alternativeName(entry.name)
      } to add ra3's entry under another name, or remove that entry and run setup again.`,
    );
  }
  const merged = writer.merge(read.doc, entry);
  if (!merged.ok) return failed(plan, formatProblem(file, merged.problem, false));
  if (!writer.verify(merged.text, entry)) {
    return failed(
      plan,
      `${file}: ra3's edit did not produce a valid ${writer.displayName} entry (a bug in ra3). ra3 left the file unchanged.`,
    );
  }
  const after = merged.text;
  if (before !== null && after === before) return { ...plan, change: "unchanged", after: null };
  const diff = unifiedDiff(before, after, { oldLabel: before === null ? "/dev/null" : file, newLabel: file });
  return { ...plan, change: before === null ? "create" : "update", after, diff };
}

/**
 * What to remove: a file and entry, e.g. from a receipt record (`createdFile` allows deleting an emptied
 * file; `createdContainer` dropping an emptied servers container, default: `createdFile`).
 */
export interface RemovalTarget {
  readonly file: string;
  readonly scope: Scope;
  readonly entryName: string;
  readonly createdFile?: boolean;
  readonly createdContainer?: boolean;
}

/**
 * Plans removing our entry from `target.file`, without writing anything. A file ra3 created that
 * would be left holding only an empty servers container is planned for deletion instead.
 */
export function planConfigRemoval(
  writer: ClientConfigWriter,
  target: RemovalTarget,
  fs: FileSystemPort,
): ConfigPlan {
  let plan = {
    ...basePlan(writer, target.scope, "remove", target.entryName),
    file: target.file,
    candidates: [target.file],
    createdFile: target.createdFile ?? false,
  };
  let bytes: Uint8Array | null;
  try {
    bytes = fs.readFile(target.file);
  } catch (err) {
    return failed(plan, `could not read ${target.file}: ${describeFsError(err)}.`);
  }
  if (bytes === null) return { ...plan, change: "absent" };
  const before = lenient.decode(bytes);
  plan = { ...plan, before };
  const read = writer.read(bytes);
  if (!read.ok) return failed(plan, formatProblem(target.file, read.problem));
  plan = { ...plan, warnings: read.doc.warnings };
  const removed = writer.remove(read.doc, target.entryName, {
    dropEmptyContainer: target.createdContainer ?? target.createdFile ?? false,
  });
  if (!removed.ok) return failed(plan, formatProblem(target.file, removed.problem, false));
  if (removed.text === before) return { ...plan, change: "absent" };
  if (plan.createdFile && writer.isEmptyShell(removed.text)) {
    return {
      ...plan,
      change: "delete",
      diff: unifiedDiff(before, "", { oldLabel: target.file, newLabel: "/dev/null" }),
    };
  }
  const diff = unifiedDiff(before, removed.text, { oldLabel: target.file, newLabel: target.file });
  return { ...plan, change: "remove", after: removed.text, diff };
}

/**
 * Carries out a plan and returns the receipt updated to match (persist it with `writeReceipt`). Refuses,
 * with nothing written, when the file changed since it was planned. Existing files are backed up
 * before they change (see disk/atomic.ts for the naming).
 */
export function applyConfigChange(
  plan: ConfigPlan,
  fs: FileSystemPort,
  receipt: InstallReceipt,
  options: { readonly now?: Date } = {},
): ApplyResult {
  if (plan.change === "error" || plan.file === null) {
    return { ok: false, receipt, error: plan.error ?? "nothing to apply" };
  }
  const file = plan.file;
  const now = options.now ?? new Date();
  const record = (createdFile: boolean, backup: string | null): ConfigRecord => ({
    client: plan.client,
    scope: plan.scope,
    file,
    entryName: plan.entryName,
    createdFile,
    ...(backup !== null ? { backup } : {}),
    ...(plan.ownership === "new" ? { createdContainer: plan.createsContainer } : {}),
  });
  if (plan.change === "unchanged") {
    // The user's own identical entry stays theirs: not recorded, so uninstall never removes it.
    if (plan.ownership === "user") return { ok: true, receipt, written: false, backup: null };
    return { ok: true, receipt: withConfigRecord(receipt, record(false, null)), written: false, backup: null };
  }
  if (plan.change === "absent") {
    return {
      ok: true,
      receipt: withoutConfigRecord(receipt, plan.client, plan.scope, file, plan.entryName),
      written: false,
      backup: null,
    };
  }

  let current: string | null;
  try {
    const bytes = fs.readFile(file);
    current = bytes === null ? null : lenient.decode(bytes);
  } catch (err) {
    return { ok: false, receipt, error: `could not read ${file}: ${describeFsError(err)}.` };
  }
  if (current !== plan.before) {
    return {
      ok: false,
      receipt,
      error:
        `${file} changed after ra3 read it (another program may be writing it); nothing was written. Run the command again.`,
    };
  }
  try {
    if (plan.change === "delete") {
      fs.remove(file);
      const next = withoutConfigRecord(receipt, plan.client, plan.scope, file, plan.entryName);
      return {
        ok: true,
        receipt: withLogEntry(next, "config.delete", `${plan.client} ${file}`, now),
        written: true,
        backup: null,
      };
    }
    const result = writeFileAtomic(fs, file, plan.after ?? "", { backup: plan.change !== "create", now });
    if (plan.change === "remove") {
      const next = withoutConfigRecord(receipt, plan.client, plan.scope, file, plan.entryName);
      return {
        ok: true,
        receipt: withLogEntry(next, "config.remove", `${plan.client} ${file}`, now),
        written: true,
        backup: result.backup,
      };
    }
    const next = withConfigRecord(receipt, record(plan.change === "create", result.backup));
    return {
      ok: true,
      receipt: withLogEntry(next, `config.${plan.change}`, `${plan.client} ${file}`, now),
      written: true,
      backup: result.backup,
    };
  } catch (err) {
    return {
      ok: false,
      receipt,
      error: `could not write ${file}: ${describeFsError(err)}. The previous file is unchanged.`,
    };
  }
}

/**
 * Removes the entry a receipt record describes (plan + apply in one step, for `uninstall`); returns
 * the plan (for reporting) and the apply result with the receipt updated. An unknown client id in the
 * record is an error result, not an exception.
 */
export function removeConfigEntry(
  record: ConfigRecord,
  fs: FileSystemPort,
  receipt: InstallReceipt,
  options: { readonly now?: Date; readonly dryRun?: boolean } = {},
): { readonly plan: ConfigPlan | null; readonly result: ApplyResult } {
  const writer = writerFor(record.client);
  if (!writer) {
    return {
      plan: null,
      result: {
        ok: false,
        receipt,
        error:
          `the install receipt names an unknown client "${record.client}" for ${record.file}; remove the "ra3" entry from that file by hand.`,
      },
    };
  }
  const plan = planConfigRemoval(writer, record, fs);
  if (options.dryRun) {
    const result: ApplyResult = plan.change === "error"
      ? { ok: false, receipt, error: plan.error ?? "" }
      : { ok: true, receipt, written: false, backup: null };
    return { plan, result };
  }
  return { plan, result: applyConfigChange(plan, fs, receipt, options) };
}
