/**
 * Link phase 2, assets: every top-level asset of the index, numbered in one order — XML assets of each
 * record (in record order), then the id-carrying children of root-level xi:include containers (they are
 * top-level assets of the fragment file), then manifest entries, de-duplicated by type and id across
 * manifests (the first stream wins). Also the maps later phases need to find an asset by its record.
 */
import { pathKey } from "../project/paths.ts";
import type { LinkContext, LoadedFile } from "./link-context.ts";
import { xpointerContainer } from "./link-context.ts";
import type { WalkResult } from "./include-walk.ts";
import type { FileTable } from "./link-files.ts";
import { type AssetDef, type FileInfo, push } from "./linked.ts";
import { runSteps } from "../steps.ts";

/** The offset range of a root-level container child in its fragment file, and the asset it became. */
export interface XiChildOwner {
  readonly start: number;
  readonly end: number;
  readonly asset: number;
  /** The container element whose children these are (an xpointer's, or the fragment's root). */
  readonly container: string;
}

/** A manifest a stream uses, with the asset index of each of its entries (-1: a duplicate without a handle). */
export interface ManifestOwner {
  readonly loaded: LoadedFile;
  readonly indexes: readonly number[];
}

export interface AssetTable {
  readonly assets: readonly AssetDef[];
  /** File key → the asset index of each record-level asset (owners of refs, Poid refs, string keys). */
  readonly recordAssets: ReadonlyMap<string, readonly number[]>;
  /** Fragment file key → the assets its container children became. */
  readonly xiChildOwners: ReadonlyMap<string, readonly XiChildOwner[]>;
  /** `typeId:instanceId` → the manifest asset's index. */
  readonly manifestHandles: ReadonlyMap<string, number>;
  readonly manifestOwners: readonly ManifestOwner[];
}

/**
 * Collects the assets of `files`.
 * @example linkAssets(ctx, files, walk).assets.filter((a) => a.origin === "project").length
 */
export function linkAssets(ctx: LinkContext, files: FileTable, walk: WalkResult): AssetTable {
  return runSteps(linkAssetsSteps(ctx, files, walk));
}

/** Records between two yields of {@link linkAssetsSteps}. */
const RECORDS_PER_STEP = 1024;

/**
 * {@link linkAssets} in steps: the record-level assets a thousand records at a time, then the
 * containers' children, then the manifests' (at Corona scale the phase was 30–40 ms in one piece).
 */
export function* linkAssetsSteps(
  ctx: LinkContext,
  files: FileTable,
  walk: WalkResult,
): Generator<void, AssetTable, void> {
  const assets: AssetDef[] = [];
  const recordAssets = yield* xmlAssets(ctx, files, assets);
  const xiChildOwners = xiContainerAssets(ctx, files, assets);
  yield;
  const { manifestHandles, manifestOwners } = manifestAssets(ctx, walk, assets);
  return { assets, recordAssets, xiChildOwners, manifestHandles, manifestOwners };
}

/** The record-level assets of every file (manifests excepted). */
function* xmlAssets(
  ctx: LinkContext,
  files: FileTable,
  assets: AssetDef[],
): Generator<void, Map<string, number[]>, void> {
  const recordAssets = new Map<string, number[]>();
  let n = 0;
  for (const { loaded, key } of ctx.all) {
    if (++n % RECORDS_PER_STEP === 0) yield;
    const info = files.get(key);
    if (!info || info.kind === "manifest") continue;
    const indexes: number[] = [];
    for (let i = 0; i < loaded.record.assets.length; i++) {
      indexes.push(assets.length);
      assets.push(recordAsset(ctx, loaded, info, i, assets.length));
    }
    recordAssets.set(key, indexes);
  }
  return recordAssets;
}

/**
 * The `i`-th record-level asset of `loaded` (numbered `index`): what it is depends on that record and
 * that file's info only, so a later link re-makes it for a changed file alone.
 */
export function recordAsset(ctx: LinkContext, loaded: LoadedFile, info: FileInfo, i: number, index: number): AssetDef {
  const a = loaded.record.assets[i];
  return {
    index,
    type: ctx.canonical(a.type),
    id: a.id,
    file: loaded.path,
    line: a.line,
    column: a.column,
    startLine: a.startLine,
    endLine: a.endLine,
    origin: info.origin,
    streams: info.streams,
    state: info.state,
    active: info.active,
    viaInstance: info.viaInstance,
    fileHasErrors: info.xmlError !== null,
    inheritFrom: a.inheritFrom,
    manifestSource: null,
    viaXInclude: false,
    recordIndex: i,
    start: a.start,
    // The art scan records where an asset starts, not where it ends.
    end: info.kind === "art" ? -1 : a.end,
  };
}

/**
 * Root-level xi:include containers of compiled or referenced files: their children with ids are top-level
 * assets (in the state of the including file).
 */
function xiContainerAssets(ctx: LinkContext, files: FileTable, assets: AssetDef[]): Map<string, XiChildOwner[]> {
  const seen = new Set<string>();
  const owners = new Map<string, XiChildOwner[]>();
  for (const { loaded, key } of ctx.all) {
    const info = files.get(key);
    if (!info || info.state === "not-included") continue;
    for (const xi of loaded.record.xincludes) {
      if (!xi.rootLevel) continue;
      const res = ctx.inputs.resolve(xi.href, loaded.path, info.origin === "sdk" ? "sdk" : "project");
      if (!res.path) continue;
      const target = ctx.records.get(pathKey(res.path));
      if (!target || !target.record.fragment) continue;
      const container = xpointerContainer(xi.xpointer) ?? target.record.rootName;
      const range = target.record.ranges.find((r) => r.local === container);
      if (!range) continue;
      const tkey = pathKey(target.path);
      const tinfo = files.get(tkey);
      for (const c of range.idChildren) {
        const k = `${tkey}\u0000${c.offset}`;
        if (seen.has(k)) continue;
        seen.add(k);
        push(owners, tkey, { start: c.start, end: c.end, asset: assets.length, container });
        assets.push({
          index: assets.length,
          type: ctx.canonical(c.type),
          id: c.id,
          file: target.path,
          line: c.line,
          column: c.column,
          startLine: c.line,
          endLine: c.line,
          origin: tinfo?.origin ?? ctx.originOf(target.path),
          streams: info.streams,
          state: info.state,
          active: info.active,
          viaInstance: info.viaInstance,
          fileHasErrors: tinfo?.xmlError != null,
          inheritFrom: null,
          manifestSource: null,
          viaXInclude: true,
          recordIndex: -1,
          start: c.start,
          end: c.end,
        });
      }
    }
  }
  return owners;
}

/** Manifest entries, de-duplicated by (typeId, id) across the manifests the walk used (first stream wins). */
function manifestAssets(
  ctx: LinkContext,
  walk: WalkResult,
  assets: AssetDef[],
): { manifestHandles: Map<string, number>; manifestOwners: ManifestOwner[] } {
  const seen = new Set<string>();
  const manifestHandles = new Map<string, number>();
  const manifestOwners: ManifestOwner[] = [];
  for (const [mk, stream] of walk.manifestsUsed) {
    const loaded = ctx.records.get(mk);
    if (!loaded) continue;
    const indexes: number[] = [];
    const streamsOfManifest = [stream];
    manifestOwners.push({ loaded, indexes });
    for (const m of loaded.record.manifestAssets) {
      const k = `${m.typeId}\u0000${m.id.toLowerCase()}`;
      const handle = `${m.typeId}:${m.instanceId}`;
      if (seen.has(k)) {
        indexes.push(manifestHandles.get(handle) ?? -1);
        continue;
      }
      seen.add(k);
      manifestHandles.set(handle, assets.length);
      indexes.push(assets.length);
      assets.push({
        index: assets.length,
        type: ctx.canonical(m.type),
        id: m.id,
        file: loaded.path,
        line: 0,
        column: 0,
        startLine: 0,
        endLine: 0,
        origin: "manifest",
        streams: streamsOfManifest,
        // A prebuilt manifest's assets are referenced by the mod, never compiled into it.
        state: "referenced",
        active: false,
        viaInstance: false,
        fileHasErrors: false,
        inheritFrom: null,
        manifestSource: m.sourceFile,
        viaXInclude: false,
        recordIndex: -1,
        start: -1,
        end: -1,
      });
    }
  }
  return { manifestHandles, manifestOwners };
}
