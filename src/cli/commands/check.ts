/**
 * `ra3 check [PATH...] [--format text|json|sarif]`: diagnostics; exit status 1 when errors exist. Every
 * format lists at most the capped diagnostics and says how many more there are per file and code.
 */
import type { CliConfig } from "../args.ts";
import { type OpenedWorkspace, openWorkspace } from "../context.ts";
import { type CliIo, EXIT_FINDINGS, EXIT_OK } from "../io.ts";
import { toSarif } from "../sarif.ts";
import { checkFiles, collectDiagnostics, type DiagnosticView } from "../../query/check.ts";
import {
  capDiagnostics,
  severityCounts,
  type UnlistedDiagnostics,
  unlistedSentence,
} from "../../query/diagnostic-caps.ts";
import { envelopeOf, isQueryError, shortEnvelope } from "../../query/envelope.ts";
import { checkAnswer, errorAnswer } from "../../query/answers.ts";

export async function runCheck(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  let status: number | undefined;
  try {
    status = runCheckWith(cfg, io, opened);
    return status;
  } finally {
    // After the output: the answer never waits for the write (nor, with its status, the run's end).
    opened.saveSnapshot(status === undefined ? {} : { status });
  }
}

function runCheckWith(cfg: CliConfig, io: CliIo, opened: OpenedWorkspace): number {
  const { ws } = opened;
  const linked = ws.linked!;
  const paths = cfg.positionals.length ? cfg.positionals : null;
  const format = cfg.format ?? (cfg.json ? "json" : "text");
  const all = collectDiagnostics(linked, paths);
  if (isQueryError(all)) {
    if (format === "json") {
      io.out(
        JSON.stringify({ index: shortEnvelope(envelopeOf(ws.view())), error: errorAnswer(all.error) }, null, 2) + "\n",
      );
    } else io.err(`ra3: ${all.error.message}\n`);
    return all.error.code === "outside_project" ? 2 : EXIT_FINDINGS;
  }
  const { errors } = severityCounts(all.diagnostics, all.counted);
  const status = errors > 0 ? EXIT_FINDINGS : EXIT_OK;
  const capped = capDiagnostics(all.diagnostics, undefined, all.counted, all.sorted);
  if (format === "sarif") {
    io.out(JSON.stringify(toSarif(linked.projectDir, capped.listed, capped.unlisted), null, 2) + "\n");
    return status;
  }
  if (format === "json") {
    const result = checkFiles(linked, paths, { limit: cfg.limit ?? 10_000, cursor: cfg.cursor });
    const index = shortEnvelope(envelopeOf(ws.view()));
    if (isQueryError(result)) {
      io.out(JSON.stringify({ index, error: errorAnswer(result.error) }, null, 2) + "\n");
      return result.error.code === "bad_argument" ? 2 : EXIT_FINDINGS;
    }
    io.out(JSON.stringify({ index, result: checkAnswer(result) }, null, 2) + "\n");
    return status;
  }
  io.out(renderCheck(all.diagnostics, capped.listed, capped.unlisted, all.counted) + "\n");
  return status;
}

/**
 * Diagnostics grouped by file (file:line:col severity code: message), each file's unlisted ones as one
 * line per code, then a summary line counting `all` and the `counted` ones records did not hold.
 */
function renderCheck(
  all: readonly DiagnosticView[],
  listed: readonly DiagnosticView[] = all,
  unlisted: readonly UnlistedDiagnostics[] = [],
  counted: readonly UnlistedDiagnostics[] = [],
): string {
  const lines: string[] = [];
  const notes = listed.filter((d) => d.file === null);
  const lastOf = new Map<string, number>();
  listed.forEach((d, i) => {
    if (d.file !== null) lastOf.set(d.file, i);
  });
  const unlistedOf = (file: string | null) => unlisted.filter((u) => u.file === file);
  let file: string | null = null;
  listed.forEach((d, i) => {
    if (d.file === null) return;
    if (d.file !== file) {
      if (file !== null) lines.push("");
      file = d.file;
      lines.push(d.file);
    }
    lines.push(`  ${d.file}:${d.line}:${d.column}  ${d.severity}  ${d.code}: ${d.message}`);
    if (lastOf.get(d.file) !== i) return;
    for (const u of unlistedOf(d.file)) lines.push(`  … ${unlistedSentence(u)}; the first is at line ${u.line}`);
  });
  if (notes.length) {
    if (lines.length) lines.push("");
    for (const n of notes) lines.push(`note: ${n.message}`);
    for (const u of unlistedOf(null)) lines.push(`note: ${unlistedSentence(u)}`);
  }
  const { errors: e, warnings: w } = severityCounts(all, counted);
  const files = new Set(all.filter((d) => d.file).map((d) => d.file)).size;
  const hidden = unlisted.reduce((a, u) => a + u.count, 0);
  if (lines.length) lines.push("");
  lines.push(
    `${e} error${e === 1 ? "" : "s"}, ${w} warning${w === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"}` +
      (hidden ? ` (${hidden} of the diagnostics are not listed)` : ""),
  );
  return lines.join("\n");
}
