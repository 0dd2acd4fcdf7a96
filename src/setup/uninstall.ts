/**
 * `ra3 uninstall`: takes away exactly what the install receipt says setup wrote — each client entry
 * (other servers and comments stay; a file ra3 created is deleted once nothing else is in it), the
 * skill copies recorded in the skill ledger (only files still as ra3 wrote them), the cache files and
 * folders setup created, and the stable binary (on Windows a running one is renamed aside). Nothing ra3
 * did not change is restored or touched; backups of the user's files are left where they are. The
 * receipt stays, emptied, with its log and an `uninstall` entry, so the home folder ends as it was
 * apart from that log.
 */
import { isInside, samePath } from "../project/paths.ts";
import { type ConfigPlan, planConfigRemoval, removeConfigEntry, writerFor } from "./clients/index.ts";
import { planTrustRemoval, removeTrust, type TrustRemoval } from "./clients/trust.ts";
import { deepestFirst, listTree, LOG_CACHE_WRITE, LOG_DIR_CREATE, LOG_UNINSTALL, loggedPaths } from "./footprint.ts";
import { describeFsError, type FileSystemPort } from "../disk/port.ts";
import { type Platform } from "./platform.ts";
import {
  type InstallReceipt,
  readReceipt,
  receiptPath,
  type TrustRecord,
  withBinary,
  withLogEntry,
  withoutSkillRecord,
  writeReceipt,
} from "./receipt.ts";
import { cleanupOldBinaries } from "./self-install.ts";
import { SKILL_RECORDS_FILE, type SkillInstallResult } from "./skill-install.ts";

/** The skill installer as uninstall uses it. */
export interface SkillRemovalPort {
  /** The copies recorded in the skill ledger. */
  recorded(): readonly { readonly target: string; readonly dir: string }[];
  /** Removes every recorded copy (`installSkill({ sync: true, uninstall: true })`). */
  uninstall(): SkillInstallResult;
}

export interface UninstallDeps {
  readonly platform: Platform;
  readonly fs: FileSystemPort;
  readonly home: string;
  readonly version: string;
  readonly now: () => Date;
  readonly skills: SkillRemovalPort;
  print(text: string): void;
  confirm(question: string): Promise<boolean>;
}

export interface UninstallRequest {
  readonly yes: boolean;
  /** A question can be asked (terminal, no `--json`). */
  readonly interactive: boolean;
  /** Also delete every snapshot and cache file in the home, not only those setup wrote. */
  readonly all: boolean;
}

export type UninstallResult =
  | "removed"
  | "deleted"
  | "absent"
  | "moved aside"
  | "failed"
  | "would remove"
  | "would delete";

export interface UninstallItem {
  readonly kind: "config" | "trust" | "skill" | "binary" | "cache" | "ledger" | "folder";
  readonly path: string;
  readonly result: UninstallResult;
  /** What it was / why it failed / what was kept. */
  readonly detail: string | null;
}

export interface UninstallReport {
  readonly ok: boolean;
  /** `nothing`: the receipt records nothing to remove. */
  readonly mode: "applied" | "dry-run" | "cancelled" | "refused" | "nothing";
  readonly error: string | null;
  readonly home: string;
  readonly items: readonly UninstallItem[];
  /** Backups setup made of the user's files (left in place). */
  readonly backups: readonly string[];
  readonly receiptFile: string | null;
}

interface Plan {
  readonly configs: readonly { readonly record: InstallReceipt["configs"][number]; readonly plan: ConfigPlan | null }[];
  readonly trust: readonly { readonly record: TrustRecord; readonly plan: TrustRemoval }[];
  readonly skills: readonly { readonly target: string; readonly dir: string }[];
  readonly binary: string | null;
  readonly caches: readonly string[];
  readonly dirs: readonly string[];
}

function makePlan(deps: UninstallDeps, receipt: InstallReceipt, request: UninstallRequest): Plan {
  const { fs } = deps;
  const configs: { record: InstallReceipt["configs"][number]; plan: ConfigPlan | null }[] = [];
  for (const record of receipt.configs) {
    const writer = writerFor(record.client);
    configs.push({ record, plan: writer ? planConfigRemoval(writer, record, fs) : null });
  }
  const trust = (receipt.trust ?? []).map((record) => ({ record, plan: planTrustRemoval(record, fs) }));
  const skills = [...deps.skills.recorded()];
  for (const s of receipt.skills) {
    if (!skills.some((r) => samePath(r.dir, s.dir))) skills.push({ target: s.target, dir: s.dir });
  }
  const binary = receipt.binary && (fs.exists(receipt.binary.path)) ? receipt.binary.path : null;
  const caches: string[] = [];
  for (const p of loggedPaths(receipt, LOG_CACHE_WRITE)) if (fs.exists(p)) caches.push(p);
  if (request.all) {
    for (const root of [fs.path.join(deps.home, "snapshots"), fs.path.join(deps.home, "cache")]) {
      for (const f of listTree(fs, root).files) if (!caches.some((c) => samePath(c, f))) caches.push(f);
    }
  }
  return { configs, trust, skills, binary, caches, dirs: deepestFirst(loggedPaths(receipt, LOG_DIR_CREATE)) };
}

/** What applying the plan would do, as report items (`would …`, or `failed` for what cannot be done). */
function plannedItems(plan: Plan): UninstallItem[] {
  const items: UninstallItem[] = [];
  for (const { record, plan: p } of plan.configs) {
    if (!p) {
      items.push({
        kind: "config",
        path: record.file,
        result: "failed",
        detail: `the install receipt names an unknown client "${record.client}"; remove the ra3 entry by hand`,
      });
    } else if (p.change === "error") {
      items.push({
        kind: "config",
        path: record.file,
        result: "failed",
        detail: `${p.displayName}: ${forUninstall(p.error ?? "")}`,
      });
    } else if (p.change === "delete") {
      items.push({
        kind: "config",
        path: record.file,
        result: "would delete",
        detail: `${p.displayName}; ra3 created it and nothing else is in it`,
      });
    } else if (p.change === "remove") {
      items.push({
        kind: "config",
        path: record.file,
        result: "would remove",
        detail: `the ra3 entry for ${p.displayName}`,
      });
    }
  }
  for (const { record, plan: t } of plan.trust) {
    if (t.change === "error") {
      items.push({ kind: "trust", path: record.file, result: "failed", detail: t.error });
    } else if (t.change !== "absent") {
      items.push({
        kind: "trust",
        path: record.file,
        result: t.change === "delete" ? "would delete" : "would remove",
        detail: t.change === "delete"
          ? "ra3 created it and nothing else is in it"
          : `the trust ra3 added for ${record.folder}`,
      });
    }
  }
  for (const s of plan.skills) {
    items.push({
      kind: "skill",
      path: s.dir,
      result: "would remove",
      detail: "the skill copy (only files ra3 wrote and you did not change)",
    });
  }
  for (const c of plan.caches) items.push({ kind: "cache", path: c, result: "would delete", detail: null });
  if (plan.binary) {
    items.push({ kind: "binary", path: plan.binary, result: "would delete", detail: "the stable binary" });
  }
  return items;
}

function itemLine(i: UninstallItem): string {
  const mark = i.result === "failed" ? "✗ " : "";
  return `  ${(mark + i.result).padEnd(12)} ${i.path}${i.detail ? `: ${i.detail}` : ""}\n`;
}

// The planner's advice is worded for setup; here the command to run again is uninstall.
function forUninstall(error: string): string {
  return error.replace(/ and run setup again\.$/, " and run ra3 uninstall again.");
}

function moveAside(fs: FileSystemPort, path: string): string {
  for (let n = 1;; n++) {
    const candidate = `${path}.old-${n}`;
    if (!(fs.exists(candidate))) {
      fs.rename(path, candidate);
      return candidate;
    }
  }
}

/**
 * Runs `ra3 uninstall` and returns the report; progress goes to `deps.print`. Without `--yes` it asks
 * on a terminal, and elsewhere only shows what it would do.
 */
export async function runUninstall(deps: UninstallDeps, request: UninstallRequest): Promise<UninstallReport> {
  const { fs, home } = deps;
  const read = readReceipt(fs, home, deps.version);
  const base = { home, receiptFile: null as string | null };
  if (!read.ok) return { ...base, ok: false, mode: "refused", error: read.error, items: [], backups: [] };
  let receipt = read.receipt;
  const backups = receipt.configs.map((c) => c.backup).filter((b): b is string => typeof b === "string");
  const plan = makePlan(deps, receipt, request);
  deps.print(`ra3 uninstall ${deps.version}: home ${home}\n`);
  const work = plannedItems(plan);
  if (work.length === 0) {
    deps.print(
      read.existed
        ? "nothing to uninstall: the install receipt records nothing that is still there\n"
        : `nothing to uninstall: there is no install receipt at ${receiptPath(fs, home)}\n`,
    );
    return { ...base, ok: true, mode: "nothing", error: null, items: [], backups };
  }

  if (!request.yes) {
    const diffs = plan.configs.map((c) => c.plan?.diff ?? "").join("");
    if (!request.interactive) {
      deps.print(
        "not a terminal and no --yes: showing what uninstall would do without changing anything (run again with --yes to apply)\n",
      );
      deps.print(work.map(itemLine).join("") + (diffs ? `\n${diffs}` : ""));
      return {
        ...base,
        ok: !work.some((i) => i.result === "failed"),
        mode: "dry-run",
        error: null,
        items: work,
        backups,
      };
    }
    deps.print(`uninstall will:\n${work.map(itemLine).join("")}${diffs ? `\n${diffs}\n` : ""}`);
    if (!(await deps.confirm(`go ahead (${work.length} change${work.length === 1 ? "" : "s"})? [y/N] `))) {
      deps.print("nothing was changed\n");
      return { ...base, ok: false, mode: "cancelled", error: null, items: [], backups };
    }
  }

  const items: UninstallItem[] = [];
  const add = (item: UninstallItem) => {
    items.push(item);
    deps.print(itemLine(item));
  };

  // Client entries first, so no client is left pointing at a binary that is about to go.
  for (const { record } of plan.configs) {
    const { plan: done, result } = removeConfigEntry(record, fs, receipt, { now: deps.now() });
    receipt = result.receipt;
    const name = done?.displayName ?? record.client;
    if (!result.ok) {
      add({ kind: "config", path: record.file, result: "failed", detail: `${name}: ${forUninstall(result.error)}` });
    } else if (done?.change === "delete") {
      add({ kind: "config", path: record.file, result: "deleted", detail: `${name}; ra3 had created it` });
    } else if (done?.change === "remove") {
      add({
        kind: "config",
        path: record.file,
        result: "removed",
        detail: `the ra3 entry for ${name}${result.backup ? `; backup ${result.backup}` : ""}`,
      });
    } else {add({
        kind: "config",
        path: record.file,
        result: "absent",
        detail: `${name}: the ra3 entry was already gone`,
      });}
  }

  // Trust entries ra3 added: only that key goes; a file ra3 created and that is empty again is deleted.
  for (const { record } of plan.trust) {
    const done = removeTrust(record, fs, receipt, deps.now());
    if (!done.ok) {
      add({ kind: "trust", path: record.file, result: "failed", detail: done.error });
      continue;
    }
    receipt = done.receipt;
    if (done.change === "absent") continue;
    add({
      kind: "trust",
      path: record.file,
      result: done.change === "delete" ? "deleted" : "removed",
      detail: done.change === "delete" ? "ra3 had created it" : `the trust ra3 added for ${record.folder}`,
    });
  }

  // Skill copies: the installer removes only files whose hash still matches what it wrote.
  if (plan.skills.length) {
    const result = deps.skills.uninstall();
    for (const r of result.reports) {
      if (r.action === "failed") {
        add({ kind: "skill", path: r.dir || r.target, result: "failed", detail: r.error ?? null });
        continue;
      }
      receipt = withoutSkillRecord(receipt, r.dir);
      const kept = r.keptUserModified.length ? `kept your changed files ${r.keptUserModified.join(", ")}` : null;
      add({
        kind: "skill",
        path: r.dir,
        result: r.action === "removed" ? "removed" : "absent",
        detail: [kept, r.note ?? null].filter(Boolean).join("; ") || null,
      });
    }
    for (const s of receipt.skills) {
      if (!result.reports.some((r) => samePath(r.dir, s.dir)) && !(fs.exists(s.dir))) {
        receipt = withoutSkillRecord(receipt, s.dir);
      }
    }
    if (result.recordsError) {
      add({ kind: "ledger", path: result.recordsFile, result: "failed", detail: result.recordsError });
    }
  }
  // An empty skill ledger carries nothing; it goes too.
  const ledger = fs.path.join(home, SKILL_RECORDS_FILE);
  let ledgerBytes: Uint8Array | null = null;
  try {
    ledgerBytes = fs.readFile(ledger);
  } catch {
    // An unreadable ledger was reported by the skill step; it is not deleted blind.
  }
  if (ledgerBytes !== null) {
    try {
      const raw = JSON.parse(new TextDecoder().decode(ledgerBytes)) as { installs?: unknown };
      if (Array.isArray(raw.installs) && raw.installs.length === 0) {
        fs.remove(ledger);
        add({ kind: "ledger", path: ledger, result: "deleted", detail: "the skill ledger, now empty" });
      }
    } catch {
      // Not ours to judge: a ledger that does not parse is left for install-skill to report.
    }
  }

  for (const c of plan.caches) {
    try {
      fs.remove(c);
      add({ kind: "cache", path: c, result: "deleted", detail: null });
    } catch (err) {
      add({ kind: "cache", path: c, result: "failed", detail: describeFsError(err) });
    }
  }

  if (plan.binary) {
    try {
      fs.remove(plan.binary);
      receipt = withBinary(receipt, null);
      add({ kind: "binary", path: plan.binary, result: "deleted", detail: null });
    } catch (err) {
      // Windows: an MCP client is running it. A running .exe can be renamed, though not deleted.
      try {
        const aside = moveAside(fs, plan.binary);
        receipt = withBinary(receipt, null);
        add({
          kind: "binary",
          path: plan.binary,
          result: "moved aside",
          detail: `it is running (${
            describeFsError(err)
          }); moved to ${aside}: delete it after closing your MCP clients`,
        });
      } catch {
        add({
          kind: "binary",
          path: plan.binary,
          result: "failed",
          detail: `${describeFsError(err)}; close the MCP clients that run it and run ra3 uninstall again`,
        });
      }
    }
  } else if (receipt.binary) receipt = withBinary(receipt, null);
  try {
    cleanupOldBinaries(fs, home);
  } catch {
    // Leftovers from Windows updates are tried again next time.
  }

  let dirsRemoved = 0;
  for (const d of plan.dirs) {
    // Never the user's home or anything outside it and ra3's home, whatever the log says.
    if (samePath(d, deps.platform.home) || !(isInside(d, deps.platform.home) || isInside(d, home))) continue;
    if (!(fs.exists(d))) continue;
    if (fs.removeEmptyDir(d)) {
      dirsRemoved++;
      items.push({ kind: "folder", path: d, result: "deleted", detail: null });
    }
  }
  if (dirsRemoved) {
    deps.print(`  ${"deleted".padEnd(12)} ${dirsRemoved} folder${dirsRemoved === 1 ? "" : "s"} setup had created\n`);
  }

  const failed = items.filter((i) => i.result === "failed").length;
  receipt = withLogEntry(
    receipt,
    LOG_UNINSTALL,
    `${items.length - failed} removed, ${failed} failed`,
    deps.now(),
    deps.version,
  );
  let receiptFile: string | null = null;
  let error: string | null = null;
  try {
    receiptFile = writeReceipt(fs, home, receipt);
    deps.print(`kept the receipt's log in ${receiptFile}\n`);
  } catch (err) {
    error = `could not update the install receipt ${receiptPath(fs, home)}: ${describeFsError(err)}`;
    deps.print(`✗ ${error}\n`);
  }
  if (backups.length) deps.print(`backups setup made of your files are kept: ${backups.join(", ")}\n`);
  return { ...base, ok: failed === 0 && error === null, mode: "applied", error, items, backups, receiptFile };
}
