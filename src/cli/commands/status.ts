/** `ra3 status`: project, SDK, schema, game, and the stored index: state, build, age, snapshot, what is stale. */
import type { CliConfig } from "../args.ts";
import { configOrExplain, emit } from "../context.ts";
import type { CliIo } from "../io.ts";
import { formatBytes } from "../../disk/size.ts";
import { scanProjectFiles } from "../../project/scan.ts";
import { SnapshotStore } from "../../store/snapshot-store.ts";
import { displayPath } from "../../project/paths.ts";
import { type SnapshotStatus, statusOf } from "../../query/status.ts";
import { inspectSnapshot, schemaKeyOf } from "../../workspace/snapshots.ts";
import { Workspace } from "../../workspace/workspace.ts";
import { statusAnswer } from "../../query/answers.ts";

const SHOWN = 20;

export async function runStatus(cfg: CliConfig, io: CliIo): Promise<number> {
  const config = configOrExplain(cfg, io);
  if (typeof config === "number") return config;
  const ws = new Workspace(config);
  const store = new SnapshotStore(config.home, config.projectDir);
  await store.waitForWriter(); // a cold run's save may end after that run (`detach.ts`)
  // Read-only: the snapshot is linked as stored; nothing is re-read or rebuilt.
  const scanned = scanProjectFiles(config.projectDir, { admitLink: (p) => config.confinement.admits(p) })
    .filter((f) => f.kind === "xml" || f.kind === "w3x");
  const inspection = inspectSnapshot(ws, store, schemaKeyOf(ws.schema), scanned);
  const rel = (p: string) => (ws.linked ? displayPath(ws.linked, p) : p);
  const total = inspection.changed.length + inspection.added.length + inspection.deleted.length;
  const snapshot: SnapshotStatus = {
    path: inspection.path,
    exists: inspection.meta !== null,
    size: inspection.meta?.size ?? null,
    generatedAt: inspection.meta?.generatedAt ?? null,
    ageSeconds: inspection.meta
      ? Math.max(0, Math.round((Date.now() - Date.parse(inspection.meta.generatedAt)) / 1000))
      : null,
    problem: inspection.reason,
    stale: {
      changed: inspection.changed.slice(0, SHOWN).map(rel),
      added: inspection.added.slice(0, SHOWN).map(rel),
      deleted: inspection.deleted.slice(0, SHOWN).map(rel),
      total,
    },
  };
  const result = { ...statusOf(ws), snapshot };
  return emit(cfg, io, ws, result, (r) => {
    const lines = [
      `project   ${r.project} (${r.marker ?? "no marker"})`,
      `game      ${r.game ?? "unknown"}`,
      `sdk       ${r.sdk ? `${r.sdk.dir} (${r.sdk.status}, from ${r.sdk.source})` : "none: project-only mode"}`,
    ];
    for (const c of r.sdkCandidates) {
      lines.push(
        `            ${c.accepted ? "used" : "skipped"} ${c.source}${c.path ? ` ${c.path}` : ""}: ${c.reason}`,
      );
    }
    lines.push(
      `schema    ${
        r.schema.dir
          ? `${r.schema.dir} (${r.schema.source}, ${r.schema.files} files)`
          : "none: references matched heuristically"
      }`,
    );
    if (!snapshot.exists) {
      lines.push(`index     ${r.state}: ${snapshot.problem ?? "no snapshot"}; run ra3 index`);
    } else {
      lines.push(
        `index     ${r.state}, build ${r.buildId}, built ${snapshot.generatedAt} (${age(snapshot.ageSeconds!)} ago)${
          r.complete ? "" : ", XML only"
        }`,
      );
      lines.push(`snapshot  ${snapshot.path} (${formatBytes(snapshot.size ?? 0)})`);
      if (total === 0) lines.push(`stale     nothing: every file matches the snapshot`);
      else {
        lines.push(`stale     ${total} file${total === 1 ? "" : "s"} changed since (ra3 index brings it up to date)`);
        for (const f of snapshot.stale.changed) lines.push(`            changed ${f}`);
        for (const f of snapshot.stale.added) lines.push(`            added   ${f}`);
        for (const f of snapshot.stale.deleted) lines.push(`            deleted ${f}`);
        if (total > snapshot.stale.changed.length + snapshot.stale.added.length + snapshot.stale.deleted.length) {
          lines.push("            …");
        }
      }
      for (const s of r.streams) {
        lines.push(
          `stream    ${s.name}: ${s.entry} (${s.files} files${s.context === "referenced" ? ", referenced" : ""})${
            s.reason ? ` — ${s.reason}` : ""
          }`,
        );
      }
      for (const n of r.entryNotes) lines.push(`warning   ${n}`);
    }
    return lines.join("\n");
  }, { answer: statusAnswer, fullIndex: true });
}

function age(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} days`;
}
