/**
 * What the warm-start tests compare a warm-started index with: a fresh build of the same copy of the
 * sample mod, the index in its own order (paths relative, no timings), and the export's bytes with the
 * facts that differ between two runs fixed. One place, so every warm-start test compares the same fields.
 */
import { type LinkedIndex, plainAsset, plainSite } from "../../src/index/linked.ts";
import { exportSnapshot } from "../../src/store/export.ts";
import { resolveConfig, type WorkspaceConfig } from "../../src/workspace/config.ts";
import { Workspace } from "../../src/workspace/workspace.ts";

/** The project-only configuration of `dir` with its home `home`. */
export function config(dir: string, home: string): WorkspaceConfig {
  const cfg = resolveConfig({ project: dir, sdk: "", schema: null, home });
  if ("envError" in cfg) throw new Error(cfg.envError);
  return cfg;
}

/** A full build of `dir` from its files (its workspace closed). */
export async function fresh(dir: string, home: string): Promise<Workspace> {
  const ws = new Workspace(config(dir, home));
  await ws.build();
  ws.close();
  return ws;
}

/**
 * The index in its own order, paths relative to `dir` (others marked `<out>`), `dir` in messages as
 * `<mod>`, the link's timing left out: equal for a warm start and a fresh build, order included.
 */
export function ordered(l: LinkedIndex, dir: string): unknown {
  const rel = (p: string | null) => (p === null ? null : p.startsWith(dir) ? p.slice(dir.length + 1) : `<out>${p}`);
  const { linkMs: _ms, ...stats } = l.stats;
  return {
    files: [...l.files].map(([k, f]) => [k, { ...f, path: rel(f.path) }]),
    assets: l.assets.map((a) => ({ ...plainAsset(a), file: rel(a.file) })),
    sites: l.sites.map((s) => ({ ...plainSite(s), file: rel(s.file) })),
    diagnostics: l.diagnostics.map((d) => ({ ...d, file: rel(d.file), message: d.message.replaceAll(dir, "<mod>") })),
    includes: l.includes.map((e) => ({ ...e, from: rel(e.from), to: rel(e.to) })),
    defines: [...l.defines].map(([k, v]) => [k, v.map((d) => ({ ...d, file: rel(d.file) }))]),
    defineUses: [...l.defineUses],
    byId: [...l.byId],
    byType: [...l.byType],
    includesFrom: [...l.includesFrom],
    includesTo: [...l.includesTo],
    referencedBy: l.assets.map((a) => l.referencedBy.get(a.index) ?? []),
    referencesFrom: l.assets.map((a) => l.referencesFrom.get(a.index) ?? []),
    strings: l.strings,
    stringUses: [...l.stringUses],
    poidSites: l.poidSites,
    streams: l.streams,
    wanted: l.wanted,
    stats,
    roots: [l.projectDir, l.sdkDir, l.schema !== null],
  };
}

/** The export's bytes (JSON) with the build facts that differ between two runs fixed. */
export function exported(ws: Workspace): string {
  const meta = {
    toolVersion: "test",
    generatedAt: "2026-01-01T00:00:00.000Z",
    buildId: 1,
    phase: "art" as const,
    complete: true,
    stale: false,
    stats: { linkMs: 0 },
  };
  return new TextDecoder().decode(exportSnapshot(ws.linked!, ws.core, meta, "json"));
}
