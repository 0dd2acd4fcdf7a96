/**
 * Which projects a server answers for, and the live index of each. A server started in a mod serves
 * that mod (and refuses others); started on a folder holding several mods it serves each of them,
 * chosen per call by the `project` argument (folder name or path) and opened lazily; started where
 * there is no mod it still runs and says so, so an agent learns to stop asking instead of guessing.
 */
import { baseName, isInside, parentDir, pathKey, toAbsolute } from "../project/paths.ts";
import { logicalCwd } from "../project/cwd.ts";
import type { ProjectRoot } from "../project/detect.ts";
import { type ConfigRequest, isEnvError, resolveConfig, type WorkspaceConfig } from "../workspace/config.ts";
import { IndexService, type SnapshotPort } from "../workspace/service.ts";
import { savedSnapshot, type SavedSnapshotFacts, schemaKeyOf, StoreSnapshotPort } from "../workspace/snapshots.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { FileSource } from "../workspace/file-source.ts";
import { isQueryError, type QueryError, queryError } from "../query/envelope.ts";

export type ServingMode = "single" | "container" | "none";

export interface ProjectEntry {
  /** The folder name, what `project` usually is. */
  readonly name: string;
  readonly dir: string;
  readonly marker: string | null;
}

export interface ProjectHandle {
  readonly entry: ProjectEntry;
  readonly service: IndexService;
}

export interface RegistryOptions {
  readonly request: Omit<ConfigRequest, "lister">;
  readonly log?: (line: string) => void;
  /** Watch project files for changes (default true). */
  readonly watch?: boolean;
  readonly debounceMs?: number;
  /** Where each project's snapshots come from (none: every start builds). */
  readonly snapshotsFor?: (config: WorkspaceConfig) => SnapshotPort | null;
  /** Opens the configuration (tests inject). */
  readonly resolve?: (req: ConfigRequest) => ReturnType<typeof resolveConfig>;
  /** Where mod files are read (default: the disk; tests inject a slow one). */
  readonly files?: FileSource;
  /** Reads an XSD file of a schema (default: the disk; tests inject a slow one). */
  readonly readSchemaFile?: (path: string) => Uint8Array;
  /** The longest a job runs between two yields (default ~10 ms; 0: after every step, for tests that count yields). */
  readonly sliceMs?: number;
}

export class ProjectRegistry {
  readonly mode: ServingMode;
  /** The folder the server was started on (the project, the container, or where no mod was found). */
  readonly root: string;
  /** Why there is no single project (container or none), as one sentence; null in single mode. */
  readonly note: string | null;
  readonly projects: readonly ProjectEntry[];
  private readonly services = new Map<string, IndexService>();
  private readonly configs = new Map<string, WorkspaceConfig>();
  private readonly log: (line: string) => void;
  private disposed = false;

  constructor(private readonly options: RegistryOptions) {
    this.log = options.log ?? (() => {});
    const req = options.request;
    const cwd = req.cwd ?? logicalCwd(req.env ?? process.env);
    const resolved = (options.resolve ?? resolveConfig)(req);
    if (!isEnvError(resolved)) {
      this.mode = "single";
      this.root = resolved.projectDir;
      this.note = null;
      this.projects = [{
        name: baseName(resolved.projectDir),
        dir: resolved.projectDir,
        marker: resolved.layout.marker,
      }];
      this.configs.set(pathKey(resolved.projectDir), resolved);
    } else if (resolved.projects && resolved.projects.length > 1) {
      this.mode = "container";
      this.root = toAbsolute(req.project ?? cwd, cwd);
      this.note = resolved.envError;
      this.projects = resolved.projects.map((p: ProjectRoot) => ({
        name: baseName(p.dir),
        dir: p.dir,
        marker: p.marker,
      }));
    } else {
      this.mode = "none";
      this.root = toAbsolute(req.project ?? cwd, cwd);
      this.note = resolved.envError;
      this.projects = [];
    }
  }

  /** The only project in single mode, else null. */
  get single(): ProjectEntry | null {
    return this.mode === "single" ? this.projects[0] : null;
  }

  /** The configuration of `entry` if it has been resolved (always, in single mode). */
  configOf(entry: ProjectEntry): WorkspaceConfig | null {
    return this.configs.get(pathKey(entry.dir)) ?? null;
  }

  /**
   * The snapshot `entry`'s index will start from, if one is saved (and the project's configuration has
   * been resolved: always in single mode, after the first call in a container); null with a custom
   * snapshot source.
   */
  snapshotOf(entry: ProjectEntry): SavedSnapshotFacts | null {
    const config = this.configOf(entry);
    if (!config || this.options.snapshotsFor) return null;
    return savedSnapshot(config.home, config.projectDir);
  }

  /** The service of `entry` if it has been opened. */
  opened(entry: ProjectEntry): IndexService | null {
    return this.services.get(pathKey(entry.dir)) ?? null;
  }

  /**
   * The project a call is about: `project` as a folder name, a path (absolute or relative to the folder
   * the server was started on) or a path inside a project; omitted, the only project. Opens it lazily.
   */
  pick(project: string | null | undefined): ProjectHandle | QueryError {
    const entry = this.entryFor(project?.trim() || null);
    if (isQueryError(entry)) return entry;
    const service = this.serviceFor(entry);
    if (isQueryError(service)) return service;
    return { entry, service };
  }

  /** Opens the single project, which starts its index (warm start or build) in the background. */
  startDefault(): void {
    const single = this.single;
    if (!single) return;
    this.serviceFor(single);
  }

  /** Stops every watcher and flushes pending snapshots. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.services.values()].map((s) => s.dispose().catch(() => {})));
  }

  private entryFor(project: string | null): ProjectEntry | QueryError {
    if (this.mode === "none") {
      return queryError("no_project", `this server has no mod to answer for: ${this.note}`);
    }
    const names = this.projects.map((p) => p.name);
    if (project === null) {
      if (this.mode === "single") return this.projects[0];
      return queryError(
        "no_project",
        `this server answers for ${this.projects.length} mods below ${this.root}; pass project (one of: ${
          listed(names)
        }); list_projects lists them`,
        { projects: names },
      );
    }
    const bare = !/[\\/]/.test(project.replace(/[\\/]+$/, ""));
    const byName = bare ? this.projects.filter((p) => p.name.toLowerCase() === baseName(project).toLowerCase()) : [];
    if (byName.length === 1) return byName[0];
    if (byName.length > 1) {
      return queryError(
        "no_project",
        `${byName.length} projects are named "${project}"; pass the folder path instead (${
          byName.map((p) => p.dir).join(", ")
        })`,
      );
    }
    // Relative paths are relative to the folder holding the projects (the container, or the project's parent).
    const base = this.mode === "container" ? this.root : parentDir(this.root);
    const abs = toAbsolute(project, base);
    const byPath = this.projects.find((p) => pathKey(p.dir) === pathKey(abs)) ??
      this.projects.find((p) => isInside(abs, p.dir));
    if (byPath) return byPath;
    if (this.mode === "single") {
      const only = this.projects[0];
      return queryError(
        "no_project",
        `this server answers only for ${only.name} (${only.dir}); "${project}" is another folder: start a server for it with ra3 mcp --project "${abs}"`,
      );
    }
    return queryError(
      "no_project",
      `no project "${project}" below ${this.root}; pass one of: ${listed(names)} (list_projects lists them)`,
      { projects: names },
    );
  }

  private serviceFor(entry: ProjectEntry): IndexService | QueryError {
    const key = pathKey(entry.dir);
    const existing = this.services.get(key);
    if (existing) return existing;
    if (this.disposed) return queryError("internal", "the server is shutting down");
    let config = this.configs.get(key);
    if (!config) {
      const resolved = (this.options.resolve ?? resolveConfig)({ ...this.options.request, project: entry.dir });
      if (isEnvError(resolved)) return queryError("no_project", `cannot open ${entry.dir}: ${resolved.envError}`);
      config = resolved;
      this.configs.set(key, config);
    }
    const service = new IndexService(config, {
      watch: this.options.watch ?? true,
      debounceMs: this.options.debounceMs,
      files: this.options.files,
      readSchemaFile: this.options.readSchemaFile,
      sliceMs: this.options.sliceMs,
      // Queries answer from a saved snapshot's index while its changed files are re-read.
      serveStoredIndex: true,
      log: (line) => this.log(`${entry.name}: ${line}`),
      snapshots: this.options.snapshotsFor
        ? this.options.snapshotsFor(config)
        : (ws: Workspace) =>
          new StoreSnapshotPort(config.home, config.projectDir, schemaKeyOf(ws.schema), (line) =>
            this.log(`${entry.name}: ${line}`)),
    });
    const schemaDir = config.schemaDir;
    if (schemaDir) {
      void service.schemaLoaded().then((schema) => {
        if (schema.queries) return;
        const why = schema.diagnostics[0]?.message ?? "unknown error";
        this.log(
          `${entry.name}: could not load the schema in ${schemaDir} (${why}); references are matched heuristically`,
        );
      }, () => {});
    }
    this.services.set(key, service);
    void service.start().catch(() => {});
    return service;
  }
}

function listed(names: readonly string[], max = 10): string {
  return names.length <= max ? names.join(", ") : `${names.slice(0, max).join(", ")}, … ${names.length - max} more`;
}
