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
import type { AssetDecl } from "./records.ts";
import { type AssetDef, type AssetHost, type FileInfo, LinkedAsset, ManifestAsset, push } from "./linked.ts";

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
  /** `(typeId, instanceId)` → the manifest asset's index. */
  readonly manifestHandles: ManifestHandles;
  readonly manifestOwners: readonly ManifestOwner[];
}

/** Records between two yields of {@link linkAssetsSteps}. */
const RECORDS_PER_STEP = 1024;

/**
 * Collects the assets of `files` in steps: the record-level assets a thousand records at a time, then the
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
  // The art scan records where an asset starts, not where it ends.
  return new LinkedAsset(index, ctx.canonical(a.type), hostOf(info, loaded.path), a, i, info.kind !== "art");
}

/** The host of a file's own assets, one per file info (a link that re-makes a file's info makes a new one). */
const hosts = new WeakMap<FileInfo, AssetHost>();

function hostOf(info: FileInfo, file: string): AssetHost {
  let host = hosts.get(info);
  if (host === undefined || host.file !== file) {
    host = {
      file,
      origin: info.origin,
      streams: info.streams,
      state: info.state,
      viaInstance: info.viaInstance,
      fileHasErrors: info.xmlError !== null,
      viaXInclude: false,
    };
    hosts.set(info, host);
  }
  return host;
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
      let host: AssetHost | undefined;
      for (const c of range.idChildren) {
        const k = `${tkey}\u0000${c.offset}`;
        if (seen.has(k)) continue;
        seen.add(k);
        push(owners, tkey, { start: c.start, end: c.end, asset: assets.length, container });
        host ??= {
          file: target.path,
          origin: tinfo?.origin ?? ctx.originOf(target.path),
          streams: info.streams,
          state: info.state,
          viaInstance: info.viaInstance,
          fileHasErrors: tinfo?.xmlError != null,
          viaXInclude: true,
        };
        const decl: AssetDecl = {
          type: c.type,
          id: c.id,
          line: c.line,
          column: c.column,
          startLine: c.line,
          endLine: c.line,
          start: c.start,
          end: c.end,
          inheritFrom: null,
        };
        const a = new LinkedAsset(assets.length, ctx.canonical(c.type), host, decl, -1);
        assets.push(a);
      }
    }
  }
  return owners;
}

/**
 * The manifest assets by their compiled handle, a type id and an instance id: nested maps of numbers, not
 * a `typeId:instanceId` string made and hashed per entry and per dependency pair (a TW SDK link made
 * 200k of them).
 */
class ManifestHandles {
  private readonly byType = new Map<number, Map<number, number>>();

  /** The asset index of the handle, or undefined. */
  get(typeId: number, instanceId: number): number | undefined {
    return this.byType.get(typeId)?.get(instanceId);
  }

  /** A copy with every asset index moved by `delta` (a renumbering link shifts the manifests' assets). */
  shifted(delta: number): ManifestHandles {
    const out = new ManifestHandles();
    for (const [typeId, ofType] of this.byType) {
      const moved = new Map<number, number>();
      for (const [instanceId, index] of ofType) moved.set(instanceId, index + delta);
      out.byType.set(typeId, moved);
    }
    return out;
  }

  /** Records `index` as the handle's asset. */
  set(typeId: number, instanceId: number, index: number): void {
    let ofType = this.byType.get(typeId);
    if (ofType === undefined) this.byType.set(typeId, ofType = new Map());
    ofType.set(instanceId, index);
  }
}

/** Manifest entries, de-duplicated by (typeId, id) across the manifests the walk used (first stream wins). */
function manifestAssets(
  ctx: LinkContext,
  walk: WalkResult,
  assets: AssetDef[],
): { manifestHandles: ManifestHandles; manifestOwners: ManifestOwner[] } {
  // Type id → the lower-cased ids met with it.
  const seen = new Map<number, Set<string>>();
  const manifestHandles = new ManifestHandles();
  const manifestOwners: ManifestOwner[] = [];
  for (const [mk, stream] of walk.manifestsUsed) {
    const loaded = ctx.records.get(mk);
    if (!loaded) continue;
    const indexes: number[] = [];
    // A prebuilt manifest's assets are referenced by the mod, never compiled into it.
    const host: AssetHost = {
      file: loaded.path,
      origin: "manifest",
      streams: [stream],
      state: "referenced",
      viaInstance: false,
      fileHasErrors: false,
      viaXInclude: false,
    };
    manifestOwners.push({ loaded, indexes });
    for (const m of loaded.record.manifestAssets) {
      const lower = m.id.toLowerCase();
      let ids = seen.get(m.typeId);
      if (ids === undefined) seen.set(m.typeId, ids = new Set());
      if (ids.has(lower)) {
        indexes.push(manifestHandles.get(m.typeId, m.instanceId) ?? -1);
        continue;
      }
      ids.add(lower);
      manifestHandles.set(m.typeId, m.instanceId, assets.length);
      indexes.push(assets.length);
      assets.push(new ManifestAsset(assets.length, ctx.canonical(m.type), m.id, host, m.sourceFile));
    }
  }
  return { manifestHandles, manifestOwners };
}
