/**
 * Writes the `.w3x` art files: meshes with bulky vertex/normal/UV/triangle payloads, containers,
 * skeletons and animations, sized so that all art together comes close to the requested total.
 *
 * Speed: payload text is built once per size class (a doubling number of vertices or frames) as a
 * Buffer and written again and again, so hundreds of MB go to disk without ever being built as one
 * string. A mesh's payload is a sum of blocks (binary decomposition of its byte budget); every block's
 * triangle indices stay below the smallest block's vertex count, so every mesh is consistent.
 * Numbers come from integer arithmetic only, so the bytes are the same on every JavaScript engine.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import type { GenContext } from "./context.ts";
import type { ArtFile, ModPlan } from "./plan.ts";
import { emptyRefCounts } from "./xml.ts";

const MESH_BASE_VERTICES = 32;
const MESH_CLASSES = 12;
const ANIM_BASE_FRAMES = 8;
const ANIM_CLASSES = 13;

/** Micro-units as a decimal with six fraction digits: fmt6(-1500000) === "-1.500000". */
function fmt6(micro: number): string {
  const abs = Math.abs(micro);
  return `${micro < 0 ? "-" : ""}${Math.floor(abs / 1_000_000)}.${String(abs % 1_000_000).padStart(6, "0")}`;
}

/** A deterministic integer in [0, range) from `i` and a salt. */
function hash(i: number, salt: number, range: number): number {
  let x = Math.imul(i ^ Math.imul(salt, 0x27d4eb2d), 0x9e3779b1) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x85ebca6b) >>> 0;
  x = (x ^ (x >>> 13)) >>> 0;
  return x % range;
}

interface MeshBlock {
  readonly vertices: Buffer;
  readonly normals: Buffer;
  readonly uvs: Buffer;
  readonly triangles: Buffer;
  readonly size: number;
}

class PayloadCache {
  private readonly mesh = new Map<number, MeshBlock>();
  private readonly anim = new Map<number, Buffer>();

  meshBlock(k: number): MeshBlock {
    let b = this.mesh.get(k);
    if (b) return b;
    const n = MESH_BASE_VERTICES << k;
    const v: string[] = [];
    const nr: string[] = [];
    const uv: string[] = [];
    const t: string[] = [];
    for (let i = 0; i < n; i++) {
      v.push(
        `\t\t\t<V X="${fmt6(hash(i, k, 6_500_000) - 3_250_000)}" Y="${
          fmt6(hash(i, k + 31, 3_000_000) - 1_500_000)
        }" Z="${fmt6(hash(i, k + 67, 2_000_000))}" />\n`,
      );
      nr.push(
        `\t\t\t<V X="${fmt6(hash(i, k + 101, 2_000_000) - 1_000_000)}" Y="${
          fmt6(hash(i, k + 137, 2_000_000) - 1_000_000)
        }" Z="${fmt6(hash(i, k + 173, 1_000_000))}" />\n`,
      );
      uv.push(`\t\t\t<T X="${fmt6(hash(i, k + 211, 1_000_000))}" Y="${fmt6(hash(i, k + 257, 1_000_000))}" />\n`);
      // Indices below the smallest block's vertex count: valid whatever blocks a mesh is made of.
      const a = i % MESH_BASE_VERTICES;
      t.push(`\t\t\t<T><V>${a}</V><V>${(a + 1) % MESH_BASE_VERTICES}</V><V>${(a + 2) % MESH_BASE_VERTICES}</V></T>\n`);
    }
    const vertices = Buffer.from(v.join(""));
    const normals = Buffer.from(nr.join(""));
    const uvs = Buffer.from(uv.join(""));
    const triangles = Buffer.from(t.join(""));
    b = { vertices, normals, uvs, triangles, size: vertices.length + normals.length + uvs.length + triangles.length };
    this.mesh.set(k, b);
    return b;
  }

  animBlock(k: number): Buffer {
    let b = this.anim.get(k);
    if (b) return b;
    const n = ANIM_BASE_FRAMES << k;
    const f: string[] = [];
    for (let i = 0; i < n; i++) {
      f.push(
        `\t\t\t\t<Frame X="${fmt6(hash(i, k + 7, 2_000_000) - 1_000_000)}" Y="${
          fmt6(hash(i, k + 11, 2_000_000) - 1_000_000)
        }" Z="${fmt6(hash(i, k + 13, 2_000_000) - 1_000_000)}" W="${fmt6(hash(i, k + 17, 1_000_000))}" />\n`,
      );
    }
    b = Buffer.from(f.join(""));
    this.anim.set(k, b);
    return b;
  }

  /** Size classes summing close to `budget` (largest first); at least one block. */
  meshClasses(budget: number): number[] {
    const out: number[] = [];
    let left = budget;
    for (let k = MESH_CLASSES - 1; k >= 0; k--) {
      const size = this.meshBlock(k).size;
      while (size <= left) {
        out.push(k);
        left -= size;
      }
    }
    return out.length ? out : [0];
  }

  animClasses(budget: number): number[] {
    const out: number[] = [];
    let left = budget;
    for (let k = ANIM_CLASSES - 1; k >= 0; k--) {
      const size = this.animBlock(k).length;
      while (size <= left) {
        out.push(k);
        left -= size;
      }
    }
    return out.length ? out : [0];
  }
}

/** Writes text and Buffers to one file, counting bytes. */
class ArtFileWriter {
  private pending = "";
  bytes = 0;
  private readonly fd: number;

  constructor(path: string) {
    this.fd = openSync(path, "w");
  }

  text(s: string): void {
    this.pending += s;
    if (this.pending.length > 1 << 16) this.flush();
  }

  block(b: Buffer): void {
    this.flush();
    writeSync(this.fd, b);
    this.bytes += b.length;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush(): void {
    if (!this.pending) return;
    const b = Buffer.from(this.pending, "utf8");
    writeSync(this.fd, b);
    this.bytes += b.length;
    this.pending = "";
  }
}

/**
 * Writes every art file of the plan, `totalBytes` in all (approximately: each file is at least its
 * skeleton, and the shortfall or excess of one file is carried to the next).
 */
export function writeArt(ctx: GenContext, plan: ModPlan, totalBytes: number): void {
  const rng = ctx.rng;
  const cache = new PayloadCache();
  const files: ArtFile[] = [...plan.common.art, ...plan.objects.flatMap((o) => o.art.files), ...plan.inactiveArt];
  // Real art sizes spread over orders of magnitude (Corona: 3,788 files, 163 over 4 MB, the largest
  // 22.8 MB): weight × a random factor between ~0.2 and ~4.5, and a few "hero" models 60 times larger.
  const weights = files.map((f) =>
    f.weight * Math.exp((rng.next() - 0.5) * 3) * ((f.kind === "skn" || f.kind === "dmg") && rng.chance(0.02) ? 60 : 1)
  );
  const sum = weights.reduce((a, b) => a + b, 0);
  let carry = 0;
  files.forEach((f, i) => {
    const target = (totalBytes * weights[i]) / sum + carry;
    const written = writeOne(ctx, cache, f, Math.max(0, target), rng.chance(0.12));
    carry = target - written;
  });
}

function writeOne(ctx: GenContext, cache: PayloadCache, f: ArtFile, target: number, bom: boolean): number {
  const out = new ArtFileWriter(ctx.path(`Art/${f.dir}/${f.name}.w3x`));
  out.text(
    `${bom ? "\uFEFF" : ""}<?xml version="1.0" encoding="utf-8"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n`,
  );
  const assets: string[] = [];
  // Hierarchy attributes and <Mesh> names: reference sites the indexer reads from art start tags and containers.
  const refs = emptyRefCounts();
  const id = f.main.id;
  switch (f.kind) {
    case "skl": {
      const pivots = Math.max(4, Math.min(400, Math.round(target / 190)));
      out.text(`\t<W3DHierarchy id="${id}">\n`);
      for (let p = 0; p < pivots; p++) {
        out.text(
          `\t\t<Pivot Name="${p === 0 ? "ROOTTRANSFORM" : `BONE_${String(p).padStart(3, "0")}`}" Parent="${
            p === 0 ? -1 : hash(p, 3, p)
          }">\n` +
            `\t\t\t<Translation X="${fmt6(hash(p, 5, 4_000_000) - 2_000_000)}" Y="${
              fmt6(hash(p, 9, 4_000_000) - 2_000_000)
            }" Z="${fmt6(hash(p, 12, 3_000_000))}" />\n` +
            `\t\t\t<Rotation X="0.000000" Y="0.000000" Z="${fmt6(hash(p, 14, 1_000_000))}" W="1.000000" />\n` +
            `\t\t</Pivot>\n`,
        );
      }
      out.text(`\t</W3DHierarchy>\n`);
      assets.push("W3DHierarchy");
      break;
    }
    case "anim": {
      const channels = 4 + (hash(id.length, 21, 9) | 0);
      const frames = ANIM_BASE_FRAMES * 4;
      out.text(
        `\t<W3DAnimation id="${id}" Hierarchy="${f.hierarchy}" NumFrames="${frames}" FrameRate="30">\n\t\t<Channels>\n`,
      );
      refs.attribute.internal++;
      const per = Math.max(0, target - 400) / channels;
      for (let c = 0; c < channels; c++) {
        out.text(`\t\t\t<ChannelQuaternion Pivot="${c + 1}">\n`);
        for (const k of cache.animClasses(per)) out.block(cache.animBlock(k));
        out.text(`\t\t\t</ChannelQuaternion>\n`);
      }
      out.text(`\t\t</Channels>\n\t</W3DAnimation>\n`);
      assets.push("W3DAnimation");
      break;
    }
    default: {
      const per = Math.max(0, target - 600 - f.meshes.length * 450) / Math.max(1, f.meshes.length);
      for (const m of f.meshes) {
        out.text(
          `\t<W3DMesh id="${id}.${m}" GeometryType="${f.kind === "skn" ? "Skin" : "Normal"}">\n` +
            `\t\t<BoundingBox>\n\t\t\t<Min X="-3.250000" Y="-1.500000" Z="0.000000" />\n\t\t\t<Max X="3.250000" Y="1.500000" Z="2.000000" />\n\t\t</BoundingBox>\n` +
            `\t\t<BoundingSphere Radius="3.577709">\n\t\t\t<Center X="0.000000" Y="0.000000" Z="1.000000" />\n\t\t</BoundingSphere>\n`,
        );
        const classes = cache.meshClasses(per);
        out.text(`\t\t<Vertices>\n`);
        for (const k of classes) out.block(cache.meshBlock(k).vertices);
        out.text(`\t\t</Vertices>\n\t\t<Normals>\n`);
        for (const k of classes) out.block(cache.meshBlock(k).normals);
        out.text(`\t\t</Normals>\n\t\t<TexCoords>\n`);
        for (const k of classes) out.block(cache.meshBlock(k).uvs);
        out.text(`\t\t</TexCoords>\n\t\t<Triangles>\n`);
        for (const k of classes) out.block(cache.meshBlock(k).triangles);
        out.text(`\t\t</Triangles>\n\t</W3DMesh>\n`);
        assets.push("W3DMesh");
      }
      out.text(`\t<W3DContainer id="${id}"${f.hierarchy ? ` Hierarchy="${f.hierarchy}"` : ""}>\n`);
      if (f.hierarchy) refs.attribute.internal++;
      f.meshes.forEach((m, i) => {
        out.text(
          `\t\t<SubObject SubObjectID="${m}" BoneIndex="${i}">\n\t\t\t<RenderObject>\n\t\t\t\t<Mesh>${id}.${m}</Mesh>\n\t\t\t</RenderObject>\n\t\t</SubObject>\n`,
        );
        refs.content.internal++;
      });
      out.text(`\t</W3DContainer>\n`);
      assets.push("W3DContainer");
    }
  }
  out.text(`</AssetDeclaration>\n`);
  out.close();
  ctx.addArt(out.bytes, assets, f.active, refs);
  return out.bytes;
}
