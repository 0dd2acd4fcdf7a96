/**
 * The plan phase of `ra3 setup`: the request and the ports it runs against, and {@link planSetup}, which
 * reads everything (binary, project, client files, skill folders) and decides what each step would
 * write, without writing. The dry run reports the plan as it is; the apply phase (setup-apply.ts)
 * carries it out.
 */
import { SKILL_FILES, SKILL_NAME, SKILL_VERSION, type SkillFile } from "../skill/embedded.ts";
import { describeFsError, type FileSystemPort } from "../disk/port.ts";
import { parse as parseJsonc } from "jsonc-parser";
import { baseName, samePath } from "../project/paths.ts";
import { snapshotPathFor } from "../project/home.ts";
import {
  allWriters,
  argValue,
  entryCommand,
  planConfigChange,
  SERVER_NAME,
  serverEntryFor,
  writersNamed,
} from "./clients/index.ts";
import type { ClientConfigWriter, ClientId, ConfigPlan, Scope, ServerEntry } from "./clients/index.ts";
import { planTrust, type TrustPlan } from "./clients/trust.ts";
import type { LiveChecker } from "./live-check.ts";
import { type ServedFolder, servedFolder } from "./mods.ts";
import type { Platform } from "./platform.ts";
import { configRecordOf, type InstallReceipt, receiptPath } from "./receipt.ts";
import { installedBinaryPath } from "./self-install.ts";
import {
  planSkillCopy,
  type ResolvedSkillTarget,
  type SkillCopyPlan,
  type SkillInstallResult,
} from "./skill-install.ts";

export interface SetupRequest {
  /** Client ids named with `--client` (validated by the caller); empty means "the detected ones". */
  readonly clients: readonly ClientId[];
  /** The entry name (`--name`); default `ra3`. */
  readonly name?: string | null;
  /** Which of the client's files (`--scope`); default `user`. */
  readonly scope?: Scope;
  readonly project: string | null;
  readonly sdk: string | null;
  /** `--entry FILE` (repeatable, relative to the mod): written into every entry so the server uses them. */
  readonly entries?: readonly string[];
  readonly yes: boolean;
  readonly dryRun: boolean;
  /** Print the generic JSON entry for clients ra3 does not know. */
  readonly print: boolean;
  /** A question can be asked (stdin and stdout are terminals, and no `--json`). */
  readonly interactive: boolean;
}

export interface ProjectInfo {
  readonly projectDir: string;
  readonly sdkDir: string | null;
  /** One phrase for the report, e.g. "ra3 mod, SDK /opt/sdk" or "no SDK (project-only mode)". */
  readonly description: string;
  /** The `--entry` files, absolute (empty or absent: the server detects the entry points). */
  readonly entries?: readonly string[];
}

export type ProjectDetection = { readonly ok: true; readonly project: ProjectInfo } | {
  readonly ok: false;
  readonly error: string;
};

export type IndexOutcome =
  | {
    readonly ok: true;
    readonly mode: "cold" | "warm";
    readonly files: number;
    readonly assets: number;
    readonly ms: number;
    readonly snapshotPath: string;
    /** False after a warm start that found nothing changed (the snapshot was already current). */
    readonly saved: boolean;
    readonly size: number | null;
    readonly warning: string | null;
  }
  | { readonly ok: false; readonly error: string };

/** The skill installer as setup uses it: the default targets, and installing into them. */
export interface SkillPort {
  /** The folders the default targets resolve to (or why one cannot be resolved). */
  targets(): readonly ResolvedSkillTarget[];
  install(): SkillInstallResult;
}

export interface SetupDeps {
  readonly platform: Platform;
  readonly fs: FileSystemPort;
  /** ra3's state folder (`--home`, `$RA3_HOME`, `~/.ra3modxml`). */
  readonly home: string;
  /** The running program (`process.execPath`). */
  readonly execPath: string;
  readonly version: string;
  readonly now: () => Date;
  detectProject(project: string | null, sdk: string | null): Promise<ProjectDetection>;
  readonly skills: SkillPort;
  buildIndex(project: ProjectInfo): Promise<IndexOutcome>;
  readonly liveCheck: LiveChecker;
  /** Human output, as the run goes (a no-op for `--json`). */
  print(text: string): void;
  /** Asks a yes/no question on the terminal. */
  confirm(question: string): Promise<boolean>;
  readonly liveCheckTimeoutMs?: number;
  /** The skill files to compare against when planning (default: the embedded skill). */
  readonly skillFiles?: readonly SkillFile[];
}

/** Executables that run ra3 from source rather than being ra3 (`bun src/main.ts setup`). */
const RUNTIMES = new Set(["bun", "node", "nodejs", "deno"]);

/**
 * True when `execPath` is a compiled ra3, false when it is a JavaScript runtime running the sources.
 * @example isCompiledRa3("/usr/local/bin/bun") // false;  isCompiledRa3("C:\\Tools\\ra3.exe") // true
 */
export function isCompiledRa3(execPath: string): boolean {
  return !RUNTIMES.has(baseName(execPath).toLowerCase().replace(/\.exe$/, ""));
}

/** What the skill step would do to one target folder (from the installer's own plan). */
export interface SkillPlanItem {
  readonly target: string;
  readonly dir: string;
  readonly action: "install" | "update" | "unchanged" | "failed";
  /** Files the installer keeps because the user changed them. */
  readonly kept: readonly string[];
  readonly error: string | null;
}

/** What installing the skill into each target would do, read-only: the installer's own plan per folder. */
function planSkills(
  fs: FileSystemPort,
  targets: readonly ResolvedSkillTarget[],
  files: readonly SkillFile[],
): SkillPlanItem[] {
  const out: SkillPlanItem[] = [];
  for (const t of targets) {
    if ("error" in t) {
      out.push({ target: t.target, dir: "", action: "failed", kept: [], error: t.error });
      continue;
    }
    let copy: SkillCopyPlan;
    try {
      copy = planSkillCopy(fs, t.dir, files, SKILL_VERSION);
    } catch (err) {
      out.push({
        target: t.target,
        dir: t.dir,
        action: "failed",
        kept: [],
        error: `cannot read ${t.dir}: ${describeFsError(err)}`,
      });
      continue;
    }
    const action = copy.state === "absent" ? "install" : copy.state === "unchanged" ? "unchanged" : "update";
    out.push({ target: t.target, dir: t.dir, action, kept: copy.state === "absent" ? [] : copy.kept, error: null });
  }
  return out;
}

/** One client's part of the plan: its entry, what it serves, the config change and the trust change. */
export interface ClientPlan {
  readonly writer: ClientConfigWriter;
  /** The entry written (null when the plan failed before one could be made). */
  readonly entry: ServerEntry | null;
  /** What the entry serves, and how that changed (user scope; null for project scope or a failed plan). */
  readonly served: ServedFolder | null;
  readonly config: ConfigPlan;
  /** Trusting the served folder, for clients that disable servers in untrusted folders. */
  readonly trust: TrustPlan | null;
}

/** Everything setup would do, computed before anything is written (the dry run shows it as is). */
export interface SetupPlan {
  readonly binaryPath: string;
  readonly binary: { readonly kind: "source"; readonly exists: boolean } | {
    readonly kind: "unchanged" | "install" | "update";
  };
  readonly project: ProjectDetection;
  /** The plain entry for this mod (what `--print` shows, and what is verified when no client is set up). */
  readonly entry: ServerEntry | null;
  /** Why clients cannot be configured at all (and whose fault: a failed earlier step, a bad `--entry`, running from source), or null. */
  readonly clientsBlocked: { readonly reason: string; readonly cause: "project" | "entry" | "source" } | null;
  readonly writers: readonly ClientConfigWriter[];
  readonly detected: boolean;
  readonly clients: readonly ClientPlan[];
  /** `clients[].config`, in order. */
  readonly configPlans: readonly ConfigPlan[];
  readonly skills: readonly SkillPlanItem[];
}

function sameFile(fs: FileSystemPort, a: string, b: string): boolean {
  const [sa, sb] = [fs.stat(a), fs.stat(b)];
  if (!sa || !sb || sa.size !== sb.size) return false;
  return fs.sha256(a) === fs.sha256(b);
}

function selectWriters(deps: SetupDeps, request: SetupRequest): { writers: ClientConfigWriter[]; detected: boolean } {
  if (request.clients.length > 0) {
    const seen = new Set<string>();
    const writers: ClientConfigWriter[] = [];
    for (const id of request.clients) {
      for (const w of writersNamed(id, deps.platform, deps.fs)) {
        if (seen.has(w.id)) continue;
        seen.add(w.id);
        writers.push(w);
      }
    }
    return { writers, detected: false };
  }
  if (request.print) return { writers: [], detected: false };
  const writers: ClientConfigWriter[] = [];
  for (const w of allWriters) if (w.presence(deps.platform, deps.fs) !== null) writers.push(w);
  return { writers, detected: true };
}

/** The folder our existing entry in `writer`'s file serves (its `--project`), or null when there is none of ours. */
function currentlyServed(
  deps: SetupDeps,
  writer: ClientConfigWriter,
  receipt: InstallReceipt,
  name: string,
): string | null {
  const { fs, platform } = deps;
  let file: string | null;
  let bytes: Uint8Array | null;
  try {
    file = writer.locate(platform, "user", fs).file;
    bytes = file === null ? null : fs.readFile(file);
  } catch {
    return null; // planConfigChange reports the same failure with its words
  }
  if (file === null || bytes === null || !configRecordOf(receipt, file, name)) return null;
  const read = writer.read(bytes);
  if (!read.ok) return null;
  const found = entryCommand(writer.inspect(read.doc, name).entry);
  return found ? argValue(found.args, "--project", platform.pathFlavour) : null;
}

/** An error plan for `writer` (nothing is written for it). */
function errorPlan(
  writer: ClientConfigWriter,
  scope: Scope,
  name: string,
  error: string,
  file: string | null,
): ConfigPlan {
  return {
    client: writer.id,
    displayName: writer.displayName,
    scope,
    action: "add",
    entryName: name,
    file,
    candidates: file ? [file] : [],
    change: "error",
    before: null,
    after: null,
    diff: "",
    error,
    warnings: [],
    notes: [],
    createdFile: false,
    ownership: "new",
    createsContainer: false,
  };
}

/** Plans one client: the folder it serves, the entry, the config change, the trust change. */
function planClient(
  deps: SetupDeps,
  writer: ClientConfigWriter,
  project: ProjectInfo,
  binaryPath: string,
  receipt: InstallReceipt,
  request: SetupRequest,
): ClientPlan {
  const { fs, platform, home } = deps;
  const scope = request.scope ?? "user";
  const name = request.name ?? SERVER_NAME;
  const served = scope === "user"
    ? servedFolder(fs, currentlyServed(deps, writer, receipt, name), project.projectDir, platform.home)
    : null;
  if (served?.kind === "separate") {
    const config = errorPlan(
      writer,
      scope,
      name,
      `its "${name}" entry serves ${served.previous}, and ${project.projectDir} shares no folder with it that ra3 would serve (only a drive root or your home folder); ra3 left the entry as it is. For this mod, run ra3 setup --project "${project.projectDir}" --name ${name}-2 (a second entry) or --scope project (a file in the mod folder).`,
      null,
    );
    return { writer, entry: null, served, config, trust: null };
  }
  if ((served?.kind === "container" || served?.kind === "inside") && (project.entries?.length ?? 0) > 0) {
    const config = errorPlan(
      writer,
      scope,
      name,
      `its "${name}" entry serves ${served.dir}, a folder of several mods, and --entry names one mod's entry points; ra3 left the entry as it is. For this mod, run ra3 setup --project "${project.projectDir}" --entry … --name ${name}-2 (a second entry) or --scope project (a file in the mod folder).`,
      null,
    );
    return { writer, entry: null, served, config, trust: null };
  }
  const dir = served?.dir ?? project.projectDir;
  const entry = serverEntryFor(platform, home, binaryPath, {
    projectDir: dir,
    sdkDir: project.sdkDir,
    entries: project.entries,
  }, {
    name,
    expansion: writer.expansion,
  });
  if (writer.expansion?.rewrites(entry.command)) {
    const config = errorPlan(
      writer,
      scope,
      name,
      `the ra3 binary path ${entry.command} contains ${writer.expansion.describe}, which ${writer.displayName} would rewrite before starting it; use a --home without "$" or "{" and run setup again.`,
      null,
    );
    return { writer, entry, served, config, trust: null };
  }
  let config = planConfigChange(writer, platform, scope, entry, fs, receipt, { projectDir: project.projectDir });
  if (config.change === "create" && config.file !== null && writer.presence(platform, fs) === null) {
    let folderExists = false;
    try {
      folderExists = fs.exists(fs.path.dirname(config.file));
    } catch {
      folderExists = false;
    }
    if (!folderExists && scope === "user") {
      config = {
        ...config,
        change: "error",
        after: null,
        diff: "",
        error:
          `${writer.displayName} does not look installed for this user (neither its folder nor its program on PATH was found), and ra3 does not create a client's folders for it; ${
            fs.path.dirname(config.file)
          } was left alone. Install ${writer.displayName} (or start it once) and run setup again.`,
      };
    }
  }
  let trust: TrustPlan | null = null;
  if (writer.trust && config.change !== "error") {
    const settings = readSettings(fs, config.file ?? writer.locate(platform, "user", fs).file);
    if (writer.trust.enabled(settings)) {
      trust = planTrust({ id: writer.id, displayName: writer.displayName, trust: writer.trust }, platform, fs, dir);
    }
  }
  return { writer, entry, served, config, trust };
}

/** A client's settings as plain data (null when missing or unreadable), for its folder-trust switch. */
function readSettings(fs: FileSystemPort, file: string | null): unknown {
  if (file === null) return null;
  try {
    const bytes = fs.readFile(file);
    if (bytes === null) return null;
    return parseJsonc(new TextDecoder().decode(bytes).replace(/^\uFEFF/, ""), [], { allowTrailingComma: true }) ?? null;
  } catch {
    return null;
  }
}

/**
 * Plans a setup run without writing anything: the binary, the project, each client's config change,
 * each skill folder. Only `detectProject` is asynchronous.
 */
export async function planSetup(deps: SetupDeps, request: SetupRequest, receipt: InstallReceipt): Promise<SetupPlan> {
  const { fs, platform, home } = deps;
  const binaryPath = installedBinaryPath(fs, home, platform.os);
  let binary: SetupPlan["binary"];
  if (!isCompiledRa3(deps.execPath)) binary = { kind: "source", exists: fs.stat(binaryPath)?.kind === "file" };
  else if (samePath(deps.execPath, binaryPath) || sameFile(fs, deps.execPath, binaryPath)) {
    binary = { kind: "unchanged" };
  } else binary = { kind: fs.exists(binaryPath) ? "update" : "install" };

  const found = await deps.detectProject(request.project, request.sdk);
  const entries = found.ok ? entryFiles(fs, found.project.projectDir, request.entries ?? []) : null;
  const project: ProjectDetection = found.ok && entries?.files.length
    ? { ok: true, project: { ...found.project, entries: entries.files } }
    : found;
  const entry = project.ok
    ? serverEntryFor(platform, home, binaryPath, project.project, { name: request.name ?? SERVER_NAME })
    : null;
  let clientsBlocked: SetupPlan["clientsBlocked"] = null;
  if (!project.ok) {
    clientsBlocked = {
      cause: "project",
      reason: "no project was found (step 2), and every entry passes the project to the server",
    };
  } else if (entries?.error) clientsBlocked = { cause: "entry", reason: entries.error };
  else if (binary.kind === "source" && !binary.exists) {
    clientsBlocked = {
      cause: "source",
      reason:
        `ra3 is running from source (${deps.execPath}), not as a compiled binary, and there is no installed binary at ${binaryPath} for the configs to point at`,
    };
  }
  const { writers, detected } = selectWriters(deps, request);
  const clients: ClientPlan[] = [];
  if (project.ok && clientsBlocked === null) {
    for (const w of writers) clients.push(planClient(deps, w, project.project, binaryPath, receipt, request));
  }
  const skills = planSkills(fs, deps.skills.targets(), deps.skillFiles ?? SKILL_FILES);
  return {
    binaryPath,
    binary,
    project,
    entry,
    clientsBlocked,
    writers,
    detected,
    clients,
    configPlans: clients.map((c) => c.config),
    skills,
  };
}

/**
 * The `--entry` files as absolute paths (relative ones are relative to the mod, as for every command),
 * or the first one that is not a file: a config must not start a server on an entry point that is not
 * there.
 */
function entryFiles(
  fs: SetupDeps["fs"],
  projectDir: string,
  given: readonly string[],
): { readonly files: readonly string[]; readonly error: string | null } {
  const files = given.map((e) => fs.path.isAbsolute(e) ? fs.path.normalize(e) : fs.path.join(projectDir, e));
  const missing = files.findIndex((f) => fs.stat(f)?.kind !== "file");
  return missing < 0 ? { files, error: null } : {
    files,
    error: `--entry ${given[missing]} is not a file in the mod (${
      files[missing]
    }); every entry would start the server on it`,
  };
}

/** The files a plan would write, one line each, for the dry run and the confirmation question. */
export function plannedWrites(deps: SetupDeps, plan: SetupPlan): string[] {
  const items: string[] = [];
  if (plan.binary.kind === "install" || plan.binary.kind === "update") {
    items.push(`${plan.binaryPath}  (${plan.binary.kind} the stable binary)`);
  }
  for (const c of plan.clients) {
    const p = c.config;
    if (p.change === "create" || p.change === "update") {
      items.push(`${p.file}  (${p.change}: the ${p.entryName} server for ${p.displayName})`);
    }
    if (c.trust && (c.trust.change === "create" || c.trust.change === "update")) {
      items.push(`${c.trust.file}  (${c.trust.change}: trust ${c.trust.folder} in ${c.trust.displayName})`);
    }
  }
  for (const s of plan.skills) {
    if (s.action === "install" || s.action === "update") {
      items.push(`${s.dir}${deps.fs.path.sep}  (${s.action} the ${SKILL_NAME} skill)`);
    }
  }
  if (plan.project.ok) {
    items.push(
      `${snapshotPathFor(deps.home, plan.project.project.projectDir)}  (the index snapshot, if the index changed)`,
    );
  }
  items.push(`${receiptPath(deps.fs, deps.home)}  (the install receipt, when anything above changes)`);
  return items;
}

/** The unified diffs of every config and trust file the plan changes, concatenated. */
export function diffsOf(plan: SetupPlan): string {
  return plan.clients
    .flatMap((c) => [c.config.diff, c.trust?.diff ?? ""])
    .filter((d) => d !== "")
    .join("");
}
