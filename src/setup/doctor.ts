/**
 * `ra3 doctor`: checks the installation the way a client meets it. For every configured client (the
 * receipt's, plus installed clients whose file already has an `ra3` entry): does the file parse, does
 * the entry run the current stable binary on an existing mod, and does that exact command answer
 * `initialize` → `tools/list` → `get_status` (spawned like the client, timed). Then the skill copies
 * recorded in `skills.json` and the snapshot of every configured project. The result is a checklist;
 * every ✗ says what to do. All effects are injected, so tests run it on an in-memory file system.
 */
import { parse as parseJsonc } from "jsonc-parser";
import { SKILL_FILES, SKILL_VERSION, type SkillFile } from "../skill/embedded.ts";
import { pathKey, samePath } from "../project/paths.ts";
import {
  allWriters,
  argValue,
  type ClientConfigWriter,
  type ClientId,
  entryCommand,
  SERVER_NAME,
  writerFor,
} from "./clients/index.ts";
import { decodeConfigBytes } from "./clients/config-text.ts";
import { readTrustRules, trustOf } from "./clients/trust.ts";
import { LOG_PROJECT, LOG_UNINSTALL, loggedPaths } from "./footprint.ts";
import { modsServedBy } from "./mods.ts";
import {
  commandLine,
  describeLiveCheck,
  LIVE_CHECK_TIMEOUT_MS,
  type LiveChecker,
  type LiveCheckResult,
} from "./live-check.ts";
import { describeFsError, type FileStat, type FileSystemPort } from "../disk/port.ts";
import { formatBytes } from "../disk/size.ts";
import { type Platform } from "./platform.ts";
import { type InstallReceipt, readReceipt, receiptPath } from "./receipt.ts";
import { installedBinaryPath } from "./self-install.ts";
import { homeArgs } from "./clients/index.ts";
import { listSkillInstalls } from "./skill-install.ts";
import { readSkillMarker, sha256Of, SKILL_MARKER_FILE } from "./skill-marker.ts";

/** What doctor needs to know about a snapshot (a subset of the store's `.meta.json`). */
export interface SnapshotFacts {
  readonly path: string;
  readonly meta: {
    readonly generatedAt: string;
    readonly size: number;
    readonly toolVersion: string;
    readonly files: number;
    readonly complete: boolean;
  } | null;
}

export interface DoctorDeps {
  readonly platform: Platform;
  readonly fs: FileSystemPort;
  readonly home: string;
  readonly version: string;
  readonly now: () => Date;
  readonly liveCheck: LiveChecker;
  /** The snapshot of `projectDir` in `home` (`SnapshotStore(home, projectDir).meta()`). */
  snapshot(projectDir: string): SnapshotFacts | Promise<SnapshotFacts>;
  readonly liveCheckTimeoutMs?: number;
  readonly skillFiles?: readonly SkillFile[];
  readonly skillVersion?: string;
}

export interface DoctorRequest {
  /** The project the entries should point at (`--project`), or null to accept any mod folder. */
  readonly project: string | null;
}

export interface DoctorCheck {
  /** The heading the check is listed under: "install", "<Client>: <file>", "skill", "snapshot". */
  readonly group: string;
  readonly ok: boolean;
  readonly label: string;
  /** What is wrong (✗ only). */
  readonly problem: string | null;
  /** What to do about it (✗ only). */
  readonly todo: string | null;
}

export interface DoctorClient {
  readonly client: ClientId | string;
  readonly displayName: string;
  readonly file: string;
  /** `receipt`: setup wrote it; `detected`: found in an installed client's file. */
  readonly source: "receipt" | "detected";
  readonly command: string | null;
  readonly args: readonly string[] | null;
  readonly live: LiveCheckResult | null;
}

export interface DoctorReport {
  readonly ok: boolean;
  readonly home: string;
  readonly version: string;
  readonly binary: string;
  readonly checks: readonly DoctorCheck[];
  readonly clients: readonly DoctorClient[];
}

/**
 * The command and arguments stored under the servers key for `name`, in any dialect's shape, as the
 * writer reads the file, or null when there is no such entry (or the file does not parse).
 * @example extractEntry(cursorWriter, '{"mcpServers":{"ra3":{"command":"/b/ra3","args":["mcp"]}}}') // { command: "/b/ra3", args: ["mcp"] }
 */
export function extractEntry(
  writer: ClientConfigWriter,
  text: string,
  name: string = SERVER_NAME,
): { command: string; args: string[] } | null {
  const read = writer.read(new TextEncoder().encode(text));
  return read.ok ? entryCommand(writer.inspect(read.doc, name).entry) : null;
}

/** `3 s`, `5 min`, `2 h`, `4 days`. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return `${s} s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  if (s < 36 * 3600) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} days`;
}

interface Target {
  readonly client: string;
  readonly writer: ClientConfigWriter | null;
  readonly file: string;
  readonly entryName: string;
  readonly source: "receipt" | "detected";
}

/** Installed clients whose user file has an `ra3` entry the receipt does not know (configured by hand). */
function detectedTargets(deps: DoctorDeps, known: Set<string>): Target[] {
  const out: Target[] = [];
  for (const w of allWriters) {
    if (w.presence(deps.platform, deps.fs) === null) continue;
    let file: string | null;
    try {
      file = w.locate(deps.platform, "user", deps.fs).file;
    } catch {
      continue; // a path doctor cannot look at is not a configured client
    }
    const key = file === null ? "" : `${pathKey(file)}\u0000${SERVER_NAME}`;
    if (file === null || known.has(key)) continue;
    const bytes = readOrNull(deps.fs, file);
    if (bytes === null) continue;
    const read = w.read(bytes);
    if (!read.ok || entryCommand(w.inspect(read.doc, SERVER_NAME).entry) === null) continue;
    known.add(key);
    out.push({ client: w.id, writer: w, file, entryName: SERVER_NAME, source: "detected" });
  }
  return out;
}

/**
 * The folder-trust checks for a client that disables servers in untrusted folders (Gemini CLI, Qwen
 * Code): nothing when its folder trust is off, else whether `folder` is trusted by its trust file.
 */
function trustChecks(
  deps: DoctorDeps,
  writer: ClientConfigWriter,
  settingsText: string,
  folder: string,
  group: string,
): DoctorCheck[] {
  const trust = writer.trust!;
  let settings: unknown = null;
  try {
    settings = parseJsonc(settingsText, [], { allowTrailingComma: true }) ?? null;
  } catch {
    settings = null;
  }
  if (!trust.enabled(settings)) return [];
  const file = trust.file(deps.platform);
  const check = (ok: boolean, label: string, problem: string | null = null, todo: string | null = null) => ({
    group,
    ok,
    label,
    problem,
    todo,
  });
  let bytes: Uint8Array | null;
  try {
    bytes = deps.fs.readFile(file);
  } catch (err) {
    return [check(false, "folder trust", `${file} cannot be read: ${describeFsError(err)}`, "check its permissions")];
  }
  const decoded = bytes === null ? null : decodeConfigBytes(bytes);
  if (decoded !== null && !decoded.ok) {
    return [check(false, "folder trust", `${file}: ${decoded.problem.message}`, "save it as UTF-8")];
  }
  const rules = readTrustRules(decoded?.value.text ?? "");
  if (!rules.ok) {
    return [
      check(
        false,
        "folder trust",
        `${file}:${rules.error}; ${writer.displayName} refuses to start with this file`,
        "fix the file, then run ra3 doctor again",
      ),
    ];
  }
  const state = trustOf(folder, rules.rules, deps.platform.pathFlavour);
  if (state.kind === "trusted") return [check(true, `folder trust: ${folder} is trusted (${file})`)];
  const why = state.kind === "distrusted"
    ? `${file} marks ${state.rule} as DO_NOT_TRUST`
    : `${folder} is not in ${file}`;
  return [
    check(
      false,
      "folder trust",
      `${writer.displayName} disables every MCP server, ra3 included, in folders you have not trusted, and ${why}`,
      trust.howToTrust,
    ),
  ];
}

/** The file's bytes, or null when it is missing or cannot be read (reported elsewhere). */
function readOrNull(fs: FileSystemPort, path: string): Uint8Array | null {
  try {
    return fs.readFile(path);
  } catch {
    return null;
  }
}

interface SkillRecordLite {
  readonly target: string;
  readonly dir: string;
}

function skillRecords(
  deps: DoctorDeps,
  receipt: InstallReceipt | null,
): { records: SkillRecordLite[]; error: string | null } {
  const ledger = listSkillInstalls(deps.home, deps.fs);
  const records: SkillRecordLite[] = ledger.records.map((r) => ({ target: r.target, dir: r.dir }));
  for (const s of receipt?.skills ?? []) {
    if (!records.some((r) => samePath(r.dir, s.dir))) records.push({ target: s.target, dir: s.dir });
  }
  return { records, error: ledger.error };
}

function checkSkill(deps: DoctorDeps, r: SkillRecordLite): DoctorCheck {
  const { fs } = deps;
  const group = "skill";
  const want = deps.skillVersion ?? SKILL_VERSION;
  const fix = `run ra3 install-skill --target ${/\s/.test(r.target) ? `"${r.target}"` : r.target}`;
  if ((fs.stat(r.dir))?.kind !== "directory") {
    return { group, ok: false, label: r.dir, problem: "the skill folder is missing", todo: fix };
  }
  const { marker } = readSkillMarker(fs, r.dir);
  if (!marker) {
    return {
      group,
      ok: false,
      label: r.dir,
      problem: `there is no valid ${SKILL_MARKER_FILE}, so ra3 does not manage this copy`,
      todo: `move the folder aside and ${fix}`,
    };
  }
  const modified: string[] = [];
  const missing: string[] = [];
  for (const [rel, hash] of Object.entries(marker.files).sort()) {
    const bytes = fs.readFile(fs.path.join(r.dir, ...rel.split("/")));
    if (bytes === null) missing.push(rel);
    else if (sha256Of(bytes) !== hash) modified.push(rel);
  }
  const expected = (deps.skillFiles ?? SKILL_FILES).map((f) => f.path).filter((p) => !(p in marker!.files));
  if (marker.version !== want || expected.length > 0) {
    return {
      group,
      ok: false,
      label: r.dir,
      problem: `version ${marker.version || "unknown"} is installed; this ra3 carries ${want}`,
      todo: "run ra3 install-skill --sync (your own changes are kept)",
    };
  }
  if (missing.length) {
    return {
      group,
      ok: false,
      label: r.dir,
      problem: `files are missing: ${missing.join(", ")}`,
      todo: "run ra3 install-skill --sync to restore them",
    };
  }
  const note = modified.length ? `; you changed ${modified.join(", ")} (ra3 keeps your changes)` : "";
  return { group, ok: true, label: `${r.dir}: version ${marker.version}${note}`, problem: null, todo: null };
}

/**
 * Runs every check and returns the report (`ok` only when there is no ✗). Never throws for
 * environment problems: they are failed checks.
 */
export async function runDoctor(deps: DoctorDeps, request: DoctorRequest): Promise<DoctorReport> {
  const { fs, platform, home } = deps;
  const checks: DoctorCheck[] = [];
  const clientsOut: DoctorClient[] = [];
  const binary = installedBinaryPath(fs, home, platform.os);
  const install = "install";

  // The receipt.
  const read = readReceipt(fs, home, deps.version);
  let receipt: InstallReceipt | null = null;
  const receiptFile = receiptPath(fs, home);
  if (!read.ok) {
    checks.push({
      group: install,
      ok: false,
      label: `install receipt ${receiptFile}`,
      problem: read.error,
      todo: "move it aside and run ra3 setup again",
    });
  } else if (!read.existed) {
    checks.push({
      group: install,
      ok: false,
      label: `install receipt ${receiptFile}`,
      problem: "there is none: ra3 setup has not run with this home",
      todo: "run ra3 setup",
    });
  } else {
    receipt = read.receipt;
    const last = receipt.log[receipt.log.length - 1];
    if (last?.action === LOG_UNINSTALL && receipt.binary === null && receipt.configs.length === 0) {
      checks.push({
        group: install,
        ok: false,
        label: `install receipt ${receiptFile}`,
        problem: `ra3 was uninstalled (${last.at})`,
        todo: "run ra3 setup",
      });
    } else {
      checks.push({
        group: install,
        ok: true,
        label: `install receipt ${receiptFile}: ${receipt.configs.length} client config${
          receipt.configs.length === 1 ? "" : "s"
        }, ${receipt.skills.length} skill cop${receipt.skills.length === 1 ? "y" : "ies"}`,
        problem: null,
        todo: null,
      });
    }
  }

  // The stable binary.
  let stat: FileStat | null = null;
  try {
    stat = fs.stat(binary);
  } catch {
    stat = null;
  }
  if (stat?.kind !== "file") {
    checks.push({
      group: install,
      ok: false,
      label: `stable binary ${binary}`,
      problem: "it is missing",
      todo: "run ra3 setup with a compiled ra3 (it installs itself there)",
    });
  } else {
    const recorded = receipt?.binary?.sha256;
    const actual = recorded ? fs.sha256(binary) : null;
    if (recorded && actual !== recorded) {
      checks.push({
        group: install,
        ok: false,
        label: `stable binary ${binary}`,
        problem: "it differs from the binary setup installed (the receipt's checksum does not match)",
        todo: "run ra3 setup again to reinstall it",
      });
    } else {
      checks.push({
        group: install,
        ok: true,
        label: `stable binary ${binary}${recorded ? " (matches the receipt)" : ""}`,
        problem: null,
        todo: null,
      });
    }
  }

  // The clients.
  const known = new Set<string>();
  const targets: Target[] = [];
  for (const c of receipt?.configs ?? []) {
    const key = `${pathKey(c.file)}\u0000${c.entryName}`;
    if (known.has(key)) continue;
    known.add(key);
    targets.push({
      client: c.client,
      writer: writerFor(c.client),
      file: c.file,
      entryName: c.entryName,
      source: "receipt",
    });
  }
  targets.push(...detectedTargets(deps, known));
  if (targets.length === 0) {
    checks.push({
      group: "clients",
      ok: false,
      label: "configured clients",
      problem: "no MCP client has an ra3 entry",
      todo: "run ra3 setup --client NAME",
    });
  }
  const projects: string[] = [];
  const containerMods: string[] = [];
  let liveVersion: string | null = null;
  for (const t of targets) {
    const name = t.writer?.displayName ?? t.client;
    const group = `${name}: ${t.file}`;
    const fixCmd = `run ra3 setup --client ${t.client}`;
    const out = (ok: boolean, label: string, problem: string | null = null, todo: string | null = null) =>
      checks.push({ group, ok, label, problem, todo });
    const client: { command: string | null; args: string[] | null; live: LiveCheckResult | null } = {
      command: null,
      args: null,
      live: null,
    };
    const done = () =>
      clientsOut.push({ client: t.client, displayName: name, file: t.file, source: t.source, ...client });
    if (!t.writer) {
      out(
        false,
        "the client",
        `the install receipt names an unknown client "${t.client}"`,
        `remove the ra3 entry from ${t.file} by hand`,
      );
      done();
      continue;
    }
    let bytes: Uint8Array | null;
    try {
      bytes = fs.readFile(t.file);
    } catch (err) {
      out(false, "the file", `cannot be read: ${describeFsError(err)}`, "check its permissions");
      done();
      continue;
    }
    if (bytes === null) {
      out(false, "the file", "it is missing", fixCmd);
      done();
      continue;
    }
    const parsed = t.writer.read(bytes);
    if (!parsed.ok) {
      const p = parsed.problem;
      const where = p.line !== null ? `${t.file}:${p.line}:${p.column ?? 1}` : t.file;
      out(
        false,
        "the file parses",
        `${where}: ${p.message}`,
        `fix the file (${name} ignores its servers until then), then ${fixCmd}`,
      );
      done();
      continue;
    }
    out(true, "the file parses");
    const entry = entryCommand(t.writer.inspect(parsed.doc, t.entryName).entry);
    if (!entry) {
      out(false, "the ra3 entry", `there is no "${t.entryName}" entry under "${t.writer.serversKey}"`, fixCmd);
      done();
      continue;
    }
    // What the client starts: its own expansion of $VAR / ${VAR} / {env:X} applied to the arguments.
    const args = t.writer.expansion ? entry.args.map((a) => t.writer!.expansion!.expand(a, platform.env)) : entry.args;
    client.command = entry.command;
    client.args = args;
    if (samePath(entry.command, binary)) out(true, `the ${t.entryName} entry runs the stable binary`);
    else out(false, `the ${t.entryName} entry`, `it runs ${entry.command}, not the stable binary ${binary}`, fixCmd);
    const written = argValue(entry.args, "--project", platform.pathFlavour);
    const project = argValue(args, "--project", platform.pathFlavour);
    if (written !== null && project !== null && written !== project) {
      out(
        false,
        `the project ${written}`,
        `${name} rewrites ${t.writer.expansion?.describe ?? "it"} in the path and starts the server on ${project}`,
        `${fixCmd} (ra3 then writes the path in a form ${name} leaves alone)`,
      );
    }
    let served: string | null = null;
    if (project === null) {
      out(
        false,
        "the project",
        "the entry passes no --project, and clients start servers in unrelated folders",
        fixCmd,
      );
    } else {
      const mods = modsServedBy(fs, project);
      const container = mods.length > 1 || (mods.length === 1 && !samePath(mods[0], project));
      for (const m of mods) if (!projects.some((p) => samePath(p, m))) projects.push(m);
      if (container) containerMods.push(...mods);
      served = project;
      const label = container
        ? `the mods in ${project} (${mods.map((m) => fs.path.basename(m)).join(", ")})`
        : `the project ${project}`;
      if (request.project !== null && !mods.some((m) => samePath(m, request.project!))) {
        out(
          false,
          label,
          `it is not ${request.project}`,
          `run ra3 setup --client ${t.client} --project "${request.project}"`,
        );
      } else if (mods.length === 0) {
        out(
          false,
          label,
          "it is not a mod folder (no Data/Mod.xml, .babproj or map metadata) nor a folder of mods, or does not exist",
          `run ra3 setup --client ${t.client} --project DIR with the mod's folder`,
        );
      } else out(true, label);
    }
    if (t.writer.trust && served !== null) checks.push(...trustChecks(deps, t.writer, parsed.doc.text, served, group));
    const entryHome = argValue(args, "--home", platform.pathFlavour);
    const expectHome = homeArgs(platform, home)[1] ?? null;
    if (!(entryHome === null ? expectHome === null : expectHome !== null && samePath(entryHome, expectHome))) {
      out(false, "the state folder", `the server would use ${entryHome ?? "the default home"}, not ${home}`, fixCmd);
    }
    const live = await deps.liveCheck({
      command: entry.command,
      args,
      cwd: platform.home,
      timeoutMs: deps.liveCheckTimeoutMs ?? LIVE_CHECK_TIMEOUT_MS,
    });
    client.live = live;
    if (live.ok) {
      liveVersion ??= samePath(entry.command, binary) ? live.serverVersion : null;
      out(true, `live check: ${describeLiveCheck(live)}`);
    } else {
      out(
        false,
        "live check",
        describeLiveCheck(live),
        `run the entry by hand to see what ${name} sees: ${commandLine(entry.command, args)}`,
      );
    }
    done();
  }
  if (liveVersion !== null && liveVersion !== deps.version) {
    checks.push({
      group: install,
      ok: false,
      label: "installed version",
      problem: `the stable binary is ra3 ${liveVersion}; this is ra3 ${deps.version}`,
      todo: "run ra3 setup with the newer binary to update the stable copy",
    });
  }

  // The skill copies.
  const skills = skillRecords(deps, receipt);
  if (skills.error) {
    checks.push({
      group: "skill",
      ok: false,
      label: "skill ledger",
      problem: skills.error,
      todo: "move it aside and run ra3 install-skill",
    });
  }
  if (skills.records.length === 0 && !skills.error) {
    checks.push({
      group: "skill",
      ok: false,
      label: "skill copies",
      problem: "the ra3-mod-xml skill is not installed anywhere",
      todo: "run ra3 install-skill (or ra3 setup)",
    });
  }
  for (const r of skills.records) checks.push(checkSkill(deps, r));

  // The snapshots.
  if (request.project !== null && !projects.some((p) => samePath(p, request.project!))) projects.push(request.project);
  const now = deps.now().getTime();
  const setUp = receipt ? loggedPaths(receipt, LOG_PROJECT) : [];
  for (const p of projects) {
    const snap = await deps.snapshot(p);
    // A mod of a served folder that setup never indexed is indexed on first use; not a problem.
    const optional = containerMods.some((m) => samePath(m, p)) && !setUp.some((m) => samePath(m, p));
    if (!snap.meta && optional) continue;
    if (!snap.meta) {
      checks.push({
        group: "snapshot",
        ok: false,
        label: p,
        problem: `there is no snapshot (${snap.path}), so the server indexes from scratch on its first start`,
        todo: `run ra3 index --project "${p}"`,
      });
      continue;
    }
    const age = formatAge(now - Date.parse(snap.meta.generatedAt));
    const older = snap.meta.toolVersion !== deps.version
      ? `; written by ra3 ${snap.meta.toolVersion}, rebuilt on next start`
      : "";
    checks.push({
      group: "snapshot",
      ok: true,
      label: `${p}: ${snap.path}, ${formatBytes(snap.meta.size)}, ${snap.meta.files} files, ${age} old${older}`,
      problem: null,
      todo: null,
    });
  }

  return {
    ok: checks.every((c) => c.ok),
    home,
    version: deps.version,
    binary,
    checks: orderChecks(checks),
    clients: clientsOut,
  };
}

// The install group first (the version check is added after the live checks), then the rest in order.
function orderChecks(checks: readonly DoctorCheck[]): DoctorCheck[] {
  return [...checks.filter((c) => c.group === "install"), ...checks.filter((c) => c.group !== "install")];
}

/** The checklist as text: a heading per group, `✓ label` or `✗ label: problem` + `what to do: …`, and a verdict. */
export function renderDoctor(report: DoctorReport): string {
  const lines = [`ra3 doctor ${report.version}: home ${report.home}`];
  let group: string | null = null;
  for (const c of report.checks) {
    if (c.group !== group) {
      group = c.group;
      lines.push(group);
    }
    if (c.ok) lines.push(`  ✓ ${c.label}`);
    else {
      lines.push(`  ✗ ${c.label}: ${c.problem}`);
      if (c.todo) lines.push(`      what to do: ${c.todo}`);
    }
  }
  const bad = report.checks.filter((c) => !c.ok).length;
  lines.push(bad === 0 ? "all is well" : `${bad} problem${bad === 1 ? "" : "s"} found`);
  return lines.join("\n") + "\n";
}
