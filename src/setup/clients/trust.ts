/**
 * Folder trust: Gemini CLI (on by default) and Qwen Code (off unless `security.folderTrust.enabled`)
 * disable every MCP server, user-level ones included, in a folder the user has not trusted (`gemini mcp
 * list` → "Disabled"; headless `gemini -p` refuses to start). Trust lives in a flat JSON object,
 * `{"<folder>": "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST"}`; the rule with the longest path that
 * contains the working folder decides (`TRUST_PARENT` covers the rule folder's parent), as in the
 * clients' own `isPathTrusted`.
 *
 * Setup offers (with the same consent as every write) to add the served folder as `TRUST_FOLDER`; an
 * explicit `DO_NOT_TRUST` is the user's decision and is never overridden. The change is a minimal text
 * edit, recorded in the receipt, and uninstall removes exactly that key again.
 */
import { writeFileAtomic } from "../../disk/atomic.ts";
import { describeFsError, type FileSystemPort } from "../../disk/port.ts";
import { isInside, type PathFlavour } from "../../project/paths.ts";
import { unifiedDiff } from "../diff.ts";
import {
  type InstallReceipt,
  type TrustRecord,
  withLogEntry,
  withoutTrustRecord,
  withTrustRecord,
} from "../receipt.ts";
import { decodeConfigBytes, lineColumn, withBom } from "./config-text.ts";
import type { Platform } from "../platform.ts";
import type { TrustSpec } from "./types.ts";
import {
  applyTextEdits,
  detectIndentUnit,
  insertProperty,
  nodeValue,
  parseJsonc,
  propertyOf,
  removeProperty,
  renderJson,
} from "./json-edit.ts";

export type TrustLevel = "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST";

/** What the trust file says about a folder. */
export type TrustState =
  | { readonly kind: "trusted"; readonly rule: string }
  | { readonly kind: "distrusted"; readonly rule: string }
  | { readonly kind: "unknown" };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `settings.security.folderTrust.enabled` when it is a boolean, else undefined. */
export function folderTrustSetting(settings: unknown): boolean | undefined {
  const security = isRecord(settings) ? settings.security : undefined;
  const folderTrust = isRecord(security) ? security.folderTrust : undefined;
  const enabled = isRecord(folderTrust) ? folderTrust.enabled : undefined;
  return typeof enabled === "boolean" ? enabled : undefined;
}

/**
 * The trust of `folder` under `rules`: the longest rule path containing it decides.
 * @example trustOf("/mods/a/Data", { "/mods/a": "TRUST_FOLDER" }, posix) // { kind: "trusted", rule: "/mods/a" }
 */
export function trustOf(folder: string, rules: Readonly<Record<string, unknown>>, flavour: PathFlavour): TrustState {
  let best: { rule: string; level: TrustLevel } | null = null;
  for (const [rule, level] of Object.entries(rules)) {
    if (level !== "TRUST_FOLDER" && level !== "TRUST_PARENT" && level !== "DO_NOT_TRUST") continue;
    const effective = level === "TRUST_PARENT" ? flavour.dirname(rule) : rule;
    if (!isInside(folder, effective)) continue;
    if (best === null || rule.length > best.rule.length) best = { rule, level };
  }
  if (best === null) return { kind: "unknown" };
  return best.level === "DO_NOT_TRUST" ? { kind: "distrusted", rule: best.rule } : { kind: "trusted", rule: best.rule };
}

/** The rules in a trust file's text, or why it cannot be read (the client refuses such a file too). */
export function readTrustRules(text: string): { ok: true; rules: Record<string, unknown> } | {
  ok: false;
  error: string;
} {
  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    const p = parsed.problem;
    return { ok: false, error: `${p.line !== null ? `${p.line}:${p.column}: ` : ""}${p.message}` };
  }
  if (parsed.root === undefined) return { ok: true, rules: {} };
  const value = nodeValue(parsed.root);
  if (!isRecord(value)) {
    const at = lineColumn(text, parsed.root.offset);
    return { ok: false, error: `${at.line}:${at.column}: the top level is not an object` };
  }
  return { ok: true, rules: value };
}

/** A planned change to a trust file (create/update write it; unchanged/distrusted write nothing). */
export interface TrustPlan {
  readonly client: string;
  readonly displayName: string;
  readonly file: string;
  readonly folder: string;
  readonly change: "create" | "update" | "unchanged" | "distrusted" | "error";
  readonly before: string | null;
  readonly after: string | null;
  readonly diff: string;
  /** For `error`: what is wrong and what to do; for `distrusted`: which rule says so. */
  readonly message: string | null;
}

/**
 * Plans trusting `folder` for `client` in its trust file, without writing. Already trusted (by any
 * rule) is `unchanged`; an explicit `DO_NOT_TRUST` covering it is `distrusted` (left alone).
 */
export function planTrust(
  client: { readonly id: string; readonly displayName: string; readonly trust: TrustSpec },
  platform: Platform,
  fs: FileSystemPort,
  folder: string,
): TrustPlan {
  const file = client.trust.file(platform);
  const base = {
    client: client.id,
    displayName: client.displayName,
    file,
    folder,
    before: null as string | null,
    after: null as string | null,
    diff: "",
    message: null as string | null,
  };
  let bytes: Uint8Array | null;
  try {
    bytes = fs.readFile(file);
  } catch (err) {
    return { ...base, change: "error", message: `could not read ${file}: ${describeFsError(err)}.` };
  }
  const decoded = bytes === null ? null : decodeConfigBytes(bytes);
  if (decoded !== null && !decoded.ok) {
    return { ...base, change: "error", message: `${file}: ${decoded.problem.message}. ra3 left the file unchanged.` };
  }
  const text = decoded?.value.text ?? "";
  const read = readTrustRules(text);
  if (!read.ok) {
    return {
      ...base,
      before: text,
      change: "error",
      message:
        `${file}:${read.error}; ${client.displayName} refuses this file too. ra3 left it unchanged; fix it and run setup again.`,
    };
  }
  const state = trustOf(folder, read.rules, platform.pathFlavour);
  if (state.kind === "trusted") return { ...base, change: "unchanged", before: text };
  if (state.kind === "distrusted") {
    return {
      ...base,
      change: "distrusted",
      before: text,
      message:
        `${file} marks ${state.rule} as DO_NOT_TRUST, so ${client.displayName} keeps ra3 (and every MCP server) disabled in ${folder}; ra3 left that decision alone.`,
    };
  }
  const eol = decoded?.value.eol ?? "\n";
  const bom = decoded?.value.bom ?? false;
  let after: string;
  const parsed = parseJsonc(text);
  if (!parsed.ok || parsed.root === undefined) {
    after = renderJson({ [folder]: "TRUST_FOLDER" }, "", { eol, unit: "  " }) + eol;
  } else {
    const fmt = { eol, unit: detectIndentUnit(text, parsed.root) };
    after = applyTextEdits(text, insertProperty(text, parsed.root, folder, "TRUST_FOLDER", fmt));
  }
  after = withBom(after, bom);
  const before = bytes === null ? null : withBom(text, bom);
  return {
    ...base,
    before,
    after,
    change: bytes === null ? "create" : "update",
    diff: unifiedDiff(before, after, { oldLabel: before === null ? "/dev/null" : file, newLabel: file }),
  };
}

/** Writes a trust plan (create/update) and returns the receipt with the trust recorded. */
export function applyTrust(
  plan: TrustPlan,
  fs: FileSystemPort,
  receipt: InstallReceipt,
  now: Date,
): { ok: true; receipt: InstallReceipt; written: boolean } | { ok: false; error: string } {
  if (plan.change !== "create" && plan.change !== "update") return { ok: true, receipt, written: false };
  try {
    const current = fs.readFile(plan.file);
    const currentText = current === null ? null : new TextDecoder("utf-8", { ignoreBOM: true }).decode(current);
    if (currentText !== plan.before) {
      return { ok: false, error: `${plan.file} changed after ra3 read it; nothing was written. Run setup again.` };
    }
    writeFileAtomic(fs, plan.file, plan.after ?? "", { backup: plan.change === "update", now });
  } catch (err) {
    return {
      ok: false,
      error: `could not write ${plan.file}: ${describeFsError(err)}. The previous file is unchanged.`,
    };
  }
  const record: TrustRecord = {
    client: plan.client,
    file: plan.file,
    folder: plan.folder,
    createdFile: plan.change === "create",
  };
  const next = withLogEntry(withTrustRecord(receipt, record), "trust.add", `${plan.client} ${plan.folder}`, now);
  return { ok: true, receipt: next, written: true };
}

/** What removing a recorded trust entry does: `remove` rewrites, `delete` deletes a file ra3 created and emptied. */
export type TrustRemoval =
  | { readonly change: "remove"; readonly before: string; readonly after: string; readonly diff: string }
  | { readonly change: "delete"; readonly before: string; readonly diff: string }
  | { readonly change: "absent" }
  | { readonly change: "error"; readonly error: string };

/** Plans removing the key ra3 added (`record.folder`), leaving every other rule byte for byte. */
export function planTrustRemoval(record: TrustRecord, fs: FileSystemPort): TrustRemoval {
  let bytes: Uint8Array | null;
  try {
    bytes = fs.readFile(record.file);
  } catch (err) {
    return { change: "error", error: `could not read ${record.file}: ${describeFsError(err)}.` };
  }
  if (bytes === null) return { change: "absent" };
  const decoded = decodeConfigBytes(bytes);
  if (!decoded.ok) return { change: "error", error: `${record.file}: ${decoded.problem.message}.` };
  const { text, bom } = decoded.value;
  const parsed = parseJsonc(text);
  if (!parsed.ok || parsed.root?.type !== "object") {
    return {
      change: "error",
      error: `${record.file} is no longer a valid trust file; remove "${record.folder}" from it by hand.`,
    };
  }
  // The key as written; trust files are compared by exact key (ra3 wrote exactly this one).
  const prop = propertyOf(parsed.root, record.folder);
  if (!prop) return { change: "absent" };
  const after = applyTextEdits(text, removeProperty(text, parsed.root, prop));
  const before = withBom(text, bom);
  if (record.createdFile && after.replace(/\s+/g, "") === "{}") {
    return {
      change: "delete",
      before,
      diff: unifiedDiff(before, "", { oldLabel: record.file, newLabel: "/dev/null" }),
    };
  }
  const full = withBom(after, bom);
  return {
    change: "remove",
    before,
    after: full,
    diff: unifiedDiff(before, full, { oldLabel: record.file, newLabel: record.file }),
  };
}

/** Carries out a trust removal; the receipt loses the record when the key is gone. */
export function removeTrust(
  record: TrustRecord,
  fs: FileSystemPort,
  receipt: InstallReceipt,
  now: Date,
): { ok: true; receipt: InstallReceipt; change: TrustRemoval["change"] } | { ok: false; error: string } {
  const plan = planTrustRemoval(record, fs);
  if (plan.change === "error") return { ok: false, error: plan.error };
  try {
    if (plan.change === "delete") fs.remove(record.file);
    else if (plan.change === "remove") writeFileAtomic(fs, record.file, plan.after);
  } catch (err) {
    return { ok: false, error: `could not change ${record.file}: ${describeFsError(err)}.` };
  }
  const next = withoutTrustRecord(receipt, record);
  return {
    ok: true,
    receipt: plan.change === "absent"
      ? next
      : withLogEntry(next, "trust.remove", `${record.client} ${record.folder}`, now),
    change: plan.change,
  };
}
