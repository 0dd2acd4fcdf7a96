/** `ra3 export [--out FILE] [--format msgpack|json]`: write the public snapshot format. */
import { join } from "node:path";
import type { CliConfig } from "../args.ts";
import { type OpenedWorkspace, openWorkspace } from "../context.ts";
import { type CliIo, EXIT_ENV, EXIT_OK } from "../io.ts";
import { writeFileAtomic } from "../../disk/atomic.ts";
import { nodeFileSystem } from "../../disk/port.ts";
import { formatBytes } from "../../disk/size.ts";
import { slugOf, toAbsolute } from "../../project/paths.ts";
import { exportSnapshot } from "../../store/export.ts";
import { TOOL_VERSION } from "../../version.ts";

export async function runExport(cfg: CliConfig, io: CliIo): Promise<number> {
  const opened = await openWorkspace(cfg, io);
  if (typeof opened === "number") return opened;
  // The export reads every record: those a warm start left undecoded are decoded now.
  await opened.ws.decodeDeferred();
  let status: number | undefined;
  try {
    status = runExportWith(cfg, io, opened);
    return status;
  } finally {
    // After the output: the answer never waits for the write (nor, with its status, the run's end).
    opened.saveSnapshot(status === undefined ? {} : { status });
  }
}

function runExportWith(cfg: CliConfig, io: CliIo, opened: OpenedWorkspace): number {
  const { ws } = opened;
  const format = cfg.format === "json" ? "json" : "msgpack";
  const view = ws.view();
  const bytes = exportSnapshot(ws.linked!, ws.core, {
    toolVersion: TOOL_VERSION,
    generatedAt: view.builtAt ?? new Date().toISOString(),
    buildId: view.buildId,
    phase: view.lifecycle.complete ? "art" : "xml",
    complete: view.lifecycle.complete,
    stale: view.lifecycle.state === "stale",
  }, format);
  // Default: next to the working directory, named after the mod, so it never lands inside the mod's Data.
  const out = cfg.out
    ? toAbsolute(cfg.out, io.cwd)
    : join(io.cwd, `${slugOf(ws.config.projectDir)}.ra3-export.${format === "json" ? "json" : "msgpack"}`);
  try {
    writeFileAtomic(nodeFileSystem(), out, bytes);
  } catch (e) {
    io.err(
      `ra3: could not write ${out}: ${
        (e as NodeJS.ErrnoException).code ?? (e as Error).message
      }; pass --out with a writable path\n`,
    );
    return EXIT_ENV;
  }
  if (cfg.json) io.out(JSON.stringify({ result: { path: out, format, size: bytes.length } }) + "\n");
  else io.out(`wrote ${out} (${format}, ${formatBytes(bytes.length)})\n`);
  return EXIT_OK;
}
