/**
 * `ra3 index`: build the index and print its summary. The text is printed before the snapshot is saved
 * (its last line, the snapshot's, after, or "being written" when the save goes on after the run exits:
 * `detach.ts`); `--json` reports the save, so it saves first.
 */
import type { CliConfig } from "../args.ts";
import { emit, openWorkspace, type SnapshotOutcome } from "../context.ts";
import { formatBytes } from "../../disk/size.ts";
import type { CliIo } from "../io.ts";
import { type IndexSummary, summarize } from "../../query/summary.ts";
import type { BuildTimings } from "../../workspace/workspace.ts";
import { TOOL_VERSION } from "../../version.ts";
import { IndexService } from "../../workspace/service.ts";
import { schemaKeyOf, StoreSnapshotPort } from "../../workspace/snapshots.ts";
import { summaryAnswer } from "../../query/answers.ts";

export interface IndexResult extends IndexSummary {
  /** "cold": a full build; "warm": started from the snapshot, re-reading only changed files. */
  readonly start: {
    readonly mode: "cold" | "warm";
    readonly changed: number;
    readonly deleted: number;
    readonly ms: number;
  };
  /** Per-phase timings of a full build (null after a warm start). */
  readonly timings: BuildTimings | null;
  /** `saved`: written by this run; `unchanged`: the file on disk already held this index (not rewritten). */
  readonly snapshot: Omit<SnapshotOutcome, "message">;
}

export async function runIndex(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io, { sites: false });
  if (typeof opened === "number") return opened;
  const { ws, report, start } = opened;
  const linked = ws.linked!;
  const s = ws.schema;
  const summary: Omit<IndexResult, "snapshot"> = {
    ...summarize(linked, { dir: s.dir, source: s.source, files: s.fileCount, loaded: s.queries !== null }),
    start: { mode: start.mode, changed: start.changed, deleted: start.deleted, ms: start.ms },
    timings: report?.timings ?? null,
  };
  let code: number;
  if (cfg.json) {
    const snapshot = opened.saveSnapshot();
    const result: IndexResult = {
      ...summary,
      snapshot: { path: snapshot.path, saved: snapshot.saved, unchanged: snapshot.unchanged, size: snapshot.size },
    };
    code = emit(cfg, io, ws, result, () => "", { answer: summaryAnswer, fullIndex: true });
  } else {
    code = emit(cfg, io, ws, summary, (r) => renderIndex(r, cfg.quiet), { answer: summaryAnswer, fullIndex: true });
    // A save that goes on after this run exits (a build from nothing: `detach.ts`) is said as such.
    let announced = false;
    const snapshot = opened.saveSnapshot({
      status: code,
      beforeRelease: () => {
        announced = true;
        if (!cfg.quiet) io.out(`snapshot: ${opened.snapshotPath} (being written)\n`);
      },
    });
    // (Announced but not let go: the parent vanished before it read the status. One line is enough.)
    if (!cfg.quiet && !announced) io.out(renderSnapshotLine(snapshot) + "\n");
  }
  if (!cfg.watch) return code;
  // --watch: keep the index (and its snapshot) current until interrupted.
  const service = new IndexService(ws.config, {
    watch: true,
    snapshots: new StoreSnapshotPort(
      ws.config.home,
      ws.config.projectDir,
      schemaKeyOf(ws.schema),
      (l) => io.err(`ra3: ${l}\n`),
    ),
    log: (line) => io.err(`ra3: ${line}\n`),
  });
  await service.start();
  io.err(`ra3: watching ${ws.config.projectDir} for changes; press Ctrl+C to stop\n`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await service.dispose();
  return code;
}

/** The people-facing summary of an index build (the snapshot's line comes after the save). */
function renderIndex(r: Omit<IndexResult, "snapshot">, quiet = false): string {
  const lines: string[] = [];
  const mode = r.mode === "sdk" ? `SDK ${r.sdk}` : "project-only mode (no SDK)";
  const schema = r.schema.heuristic
    ? "no schema: references matched heuristically"
    : `schema from ${r.schema.source} (${r.schema.files} XSD files)`;
  lines.push(`ra3 ${TOOL_VERSION}: indexed ${r.project}`);
  lines.push(`  ${mode}; ${schema}`);
  if (quiet) return lines.join("\n");
  lines.push(`streams:`);
  for (const st of r.streams) {
    const m = st.manifests.length ? `, manifests ${st.manifests.join(", ")}` : "";
    lines.push(`  ${st.name.padEnd(28)} ${st.entry} (${st.files} file${st.files === 1 ? "" : "s"}${m})`);
  }
  lines.push(
    `files: ${r.files.total} (${r.files.compiled} compiled, ${r.files.referenced} referenced, ${r.files.notIncluded} not included; ${r.files.art} art, ${r.files.fragments} fragments)`,
  );
  const total = r.assetsByType.reduce((a, b) => a + b.count, 0);
  lines.push(
    `assets: ${total} in ${r.assetsByType.length} types` +
      (r.sdkAssetsByOrigin.sdk + r.sdkAssetsByOrigin.manifest > 0
        ? `; SDK layer: ${r.sdkAssetsByOrigin.sdk} from XML, ${r.sdkAssetsByOrigin.manifest} from manifests`
        : ""),
  );
  const shown = r.assetsByType.slice(0, 12).map((c) => `${c.type} ${c.count}`);
  if (shown.length) {
    lines.push(
      `  ${shown.join(", ")}${r.assetsByType.length > 12 ? `, … ${r.assetsByType.length - 12} more types` : ""}`,
    );
  }
  lines.push(
    `references: ${r.references.total} (${r.references.resolved} resolved, ${r.references.external} outside the project, ${r.references.unresolved} unresolved)`,
  );
  if (r.unresolvedIncludes.length) {
    const n = r.unresolvedIncludes.reduce((a, b) => a + b.count, 0);
    const top = r.unresolvedIncludes.slice(0, 5).map((u) => `${u.source}${u.count > 1 ? ` ×${u.count}` : ""}`);
    lines.push(`unresolved includes: ${n} (${top.join(", ")}${r.unresolvedIncludes.length > 5 ? ", …" : ""})`);
  }
  const d = r.diagnostics;
  lines.push(
    `diagnostics: ${d.errors} error${d.errors === 1 ? "" : "s"}, ${d.warnings} warning${
      d.warnings === 1 ? "" : "s"
    }, ${d.information} note${d.information === 1 ? "" : "s"}${
      d.errors + d.warnings > 0 ? " (ra3 check lists them)" : ""
    }`,
  );
  for (const note of d.notes) lines.push(`  note: ${note}`);
  const t = r.timings;
  if (t) lines.push(timeLine(t));
  else {
    lines.push(
      `time: ${
        Math.round(r.start.ms)
      } ms from the snapshot (${r.start.changed} changed, ${r.start.deleted} deleted file${
        r.start.deleted === 1 ? "" : "s"
      } re-read)`,
    );
  }
  return lines.join("\n");
}

/**
 * The time a full build took. The schema is loaded before the build starts (when the workspace is
 * made), so its load is added to the build's own total and shown beside it: the line's first figure is
 * the whole wait.
 * @example timeLine(t) // "time: 875 ms (schema 225, build 650: scan 9, parse 457, SDK 55, link 63, art 66)"
 */
export function timeLine(t: BuildTimings): string {
  const ms = (n: number) => Math.round(n);
  const phases = `scan ${ms(t.scanMs)}, parse ${ms(t.parseMs)}, SDK ${ms(t.sdkMs)}, link ${ms(t.linkMs)}, art ${
    ms(t.artMs)
  }`;
  if (t.schemaMs <= 0) return `time: ${ms(t.totalMs)} ms full build (${phases})`;
  return `time: ${ms(t.schemaMs) + ms(t.totalMs)} ms (schema ${ms(t.schemaMs)}, build ${ms(t.totalMs)}: ${phases})`;
}

/** The snapshot's line of the summary: where it is, its size, whether this run wrote it. */
function renderSnapshotLine(snapshot: SnapshotOutcome): string {
  const facts = [
    ...(snapshot.size !== null ? [formatBytes(snapshot.size)] : []),
    ...(snapshot.saved ? [] : [snapshot.unchanged ? "unchanged, not rewritten" : "not written"]),
  ];
  return `snapshot: ${snapshot.path}${facts.length ? ` (${facts.join(", ")})` : ""}`;
}
