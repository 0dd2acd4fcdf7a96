/** `ra3 check [PATH...] [--format text|json|sarif]`: diagnostics; exit status 1 when errors exist. */
import type { CliConfig } from "../args.ts";
import { openWorkspace } from "../context.ts";
import { type CliIo, EXIT_FINDINGS, EXIT_OK } from "../io.ts";
import { toSarif } from "../sarif.ts";
import { checkFiles, collectDiagnostics, type DiagnosticView } from "../../query/check.ts";
import { envelopeOf, isQueryError } from "../../query/envelope.ts";

export async function runCheck(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  const { ws } = opened;
  const linked = ws.linked!;
  const paths = cfg.positionals.length ? cfg.positionals : null;
  const format = cfg.format ?? (cfg.json ? "json" : "text");
  const all = collectDiagnostics(linked, paths);
  if (isQueryError(all)) {
    io.err(`ra3: ${all.error.message}\n`);
    return all.error.code === "outside_project" ? 2 : EXIT_FINDINGS;
  }
  const errors = all.diagnostics.filter((d) => d.severity === "error").length;
  const status = errors > 0 ? EXIT_FINDINGS : EXIT_OK;
  if (format === "sarif") {
    io.out(JSON.stringify(toSarif(linked.projectDir, all.diagnostics), null, 2) + "\n");
    return status;
  }
  if (format === "json") {
    const result = checkFiles(linked, paths, { limit: cfg.limit ?? 10_000, cursor: cfg.cursor });
    io.out(JSON.stringify({ index: envelopeOf(ws.view()), result }, null, 2) + "\n");
    return status;
  }
  io.out(renderCheck(all.diagnostics) + "\n");
  return status;
}

/** Diagnostics grouped by file (file:line:col severity code: message), then a summary line. */
export function renderCheck(diagnostics: readonly DiagnosticView[]): string {
  const lines: string[] = [];
  const notes = diagnostics.filter((d) => d.file === null);
  let file: string | null = null;
  for (const d of diagnostics) {
    if (d.file === null) continue;
    if (d.file !== file) {
      if (file !== null) lines.push("");
      file = d.file;
      lines.push(d.file);
    }
    lines.push(`  ${d.file}:${d.line}:${d.column}  ${d.severity}  ${d.code}: ${d.message}`);
  }
  if (notes.length) {
    if (lines.length) lines.push("");
    for (const n of notes) lines.push(`note: ${n.message}`);
  }
  const count = (s: string) => diagnostics.filter((d) => d.severity === s).length;
  const e = count("error");
  const w = count("warning");
  const files = new Set(diagnostics.filter((d) => d.file).map((d) => d.file)).size;
  if (lines.length) lines.push("");
  lines.push(
    `${e} error${e === 1 ? "" : "s"}, ${w} warning${w === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"}`,
  );
  return lines.join("\n");
}
