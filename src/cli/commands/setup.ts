/** `ra3 setup [--client NAME]... [--name NAME] [--scope user|project] [--entry FILE]... [--yes] [--dry-run] [--print]`: zero-install agent setup. */
import type { CliConfig } from "../args.ts";
import { openWorkspace } from "../context.ts";
import { type CliIo, EXIT_ENV, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE } from "../io.ts";
import { envelopeOf } from "../../query/envelope.ts";
import { resolveHome } from "../../project/home.ts";
import { isEnvError, resolveConfig } from "../../workspace/config.ts";
import { type ClientId, clientIds, writerFor } from "../../setup/clients/index.ts";
import { askYesNo, canAsk, platformFromEnv } from "../../setup/environment.ts";
import { liveCheck } from "../../setup/live-check.ts";
import { nodeFileSystem } from "../../disk/port.ts";
import type { IndexOutcome, ProjectDetection } from "../../setup/setup-plan.ts";
import { runSetup } from "../../setup/setup.ts";
import { DEFAULT_SKILL_TARGETS, installSkill, resolveSkillTarget } from "../../setup/skill-install.ts";
import { TOOL_VERSION } from "../../version.ts";

/** Runs `ra3 setup`; returns 0 when no step failed, 1 when one did (or the question was answered no), 2 for an unknown client, 3 for an unreadable receipt. */
export async function runSetupCommand(cfg: CliConfig, io: CliIo): Promise<number> {
  const unknown = cfg.clients.find((c) => writerFor(c) === null);
  if (unknown !== undefined) {
    io.err(
      `ra3: unknown client "${unknown}"; --client takes one of ${
        clientIds.join(", ")
      } (use --print for any other client)\n`,
    );
    return EXIT_USAGE;
  }
  const platform = platformFromEnv(io.env);
  const home = resolveHome({ flag: cfg.home, env: io.env, homedir: platform.home, cwd: io.cwd });
  const silent: CliIo = { ...io, out: () => {}, err: () => {} };

  const detectProject = async (project: string | null, sdk: string | null): Promise<ProjectDetection> => {
    const config = resolveConfig({ project, sdk, schema: cfg.schema, home, cwd: io.cwd, env: io.env });
    if (isEnvError(config)) {
      const list = config.projects?.length ? ` (${config.projects.map((p) => p.dir).join(", ")})` : "";
      return { ok: false, error: config.envError + list };
    }
    const sdkPart = config.sdk
      ? `SDK ${config.sdk.dir}${config.sdk.game ? ` (${config.sdk.game})` : ""}`
      : "no SDK: project-only mode, vanilla assets are not indexed";
    return {
      ok: true,
      project: { projectDir: config.projectDir, sdkDir: config.sdk?.dir ?? null, description: sdkPart },
    };
  };

  const buildIndex = async (project: { projectDir: string; sdkDir: string | null }): Promise<IndexOutcome> => {
    const errors: string[] = [];
    const capture: CliIo = { ...silent, err: (t) => errors.push(t.replace(/^ra3: /, "").trim()) };
    const opened = await openWorkspace(
      {
        ...cfg,
        project: project.projectDir,
        sdk: project.sdkDir ?? cfg.sdk,
        home,
        quiet: false,
      },
      capture,
    );
    if (typeof opened === "number") return { ok: false, error: errors.join("; ") || "the index could not be built" };
    const counts = envelopeOf(opened.ws.view()).counts;
    const snapshot = opened.saveSnapshot();
    return {
      ok: true,
      mode: opened.start.mode,
      files: counts.files,
      assets: counts.assets,
      ms: Math.round(opened.start.ms),
      snapshotPath: snapshot.path,
      saved: snapshot.saved,
      size: snapshot.size,
      warning: snapshot.message ?? (errors.filter((e) => e.startsWith("warning")).join("; ") || null),
    };
  };

  const report = await runSetup(
    {
      platform,
      fs: nodeFileSystem(),
      home,
      execPath: process.execPath,
      version: TOOL_VERSION,
      now: () => new Date(),
      detectProject,
      skills: {
        targets: () =>
          DEFAULT_SKILL_TARGETS.map((t) =>
            resolveSkillTarget(t, { userHome: platform.home, env: io.env, cwd: io.cwd })
          ),
        install: () => installSkill({ home, userHome: platform.home, env: io.env, cwd: io.cwd }),
      },
      buildIndex,
      liveCheck,
      print: cfg.json ? () => {} : (t) => io.out(t),
      confirm: askYesNo,
    },
    {
      clients: cfg.clients.map((c) => writerFor(c)!.id as ClientId),
      name: cfg.name,
      scope: cfg.scope,
      project: cfg.project,
      sdk: cfg.sdk,
      entries: cfg.entries,
      yes: cfg.yes,
      dryRun: cfg.dryRun,
      print: cfg.print,
      interactive: !cfg.json && canAsk(),
    },
  );
  if (cfg.json) io.out(JSON.stringify({ result: report }, null, 2) + "\n");
  if (report.mode === "refused") {
    io.err(`ra3: ${report.error}\n`);
    return EXIT_ENV;
  }
  return report.ok ? EXIT_OK : EXIT_FINDINGS;
}
