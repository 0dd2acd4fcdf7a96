/**
 * Generates a synthetic RA3 mod for benchmarks: deterministic for a given seed and scale.
 * `generateCorpus({ out, scale, seed, artMb })` writes the folder and returns what it wrote.
 */
import { existsSync, readdirSync } from "node:fs";
import { writeArt } from "./art.ts";
import { GenContext } from "./context.ts";
import { writeData } from "./data.ts";
import { planMod } from "./plan.ts";
import { renderXsdFiles } from "./xsd.ts";
import { REF_KINDS, type RefCounts, type RefKind } from "./xml.ts";

export interface GenerateOptions {
  /** Output folder; must not exist or be empty. */
  readonly out: string;
  /** Multiplies file, asset, reference and art counts (1 ≈ Corona). */
  readonly scale: number;
  readonly seed: number;
  /** Total `.w3x` size in MB (10^6 bytes); default 300 × scale. */
  readonly artMb?: number;
}

/** What was written, counted the way the indexer counts it. */
export interface GenerationSummary {
  readonly out: string;
  readonly scale: number;
  readonly seed: number;
  readonly artMb: number;
  readonly objects: number;
  readonly files: {
    readonly xml: number;
    readonly w3x: number;
    readonly other: number;
    readonly inactiveXml: number;
    readonly inactiveW3x: number;
  };
  readonly bytes: { readonly xml: number; readonly w3x: number; readonly other: number };
  /** Top-level assets by type (XML and .w3x, active and inactive), sorted by type. */
  readonly assets: Readonly<Record<string, number>>;
  readonly assetTotal: number;
  readonly inactiveAssets: number;
  /** Reference sites by kind, as the indexer will find them (fragment sites once per splice). */
  readonly references: RefCounts;
  readonly referenceTotal: number;
  /** Sites that name an asset of the mod itself (all of them should resolve). */
  readonly internalReferences: number;
  /** Sites that name vanilla assets (unresolved in project-only mode). */
  readonly vanillaReferences: number;
  /** Poid module references (pipeline-local: not reference sites). */
  readonly poidReferences: number;
  /** Of the sites, those inside .w3x files (`Hierarchy` attributes, `<Mesh>` names in containers). */
  readonly artReferences: number;
  readonly defines: number;
  /** `$NAME` uses in active files. */
  readonly defineUses: number;
  readonly includes: { readonly all: number; readonly instance: number; readonly reference: number };
  readonly xiIncludes: number;
  readonly fragments: number;
  readonly ms: number;
}

/** Usage error (bad options), reported as one sentence. */
export class GenerateError extends Error {}

/**
 * Writes the synthetic mod to `opts.out` and returns its summary.
 * @example generateCorpus({ out: "/tmp/ra3-corpus", scale: 1, seed: 1 }).assetTotal // ≈ 32,000
 */
export function generateCorpus(opts: GenerateOptions): GenerationSummary {
  const started = performance.now();
  if (!(opts.scale > 0) || !Number.isFinite(opts.scale)) {
    throw new GenerateError(`--scale must be a positive number, not ${opts.scale}`);
  }
  if (!Number.isInteger(opts.seed)) throw new GenerateError(`--seed must be an integer, not ${opts.seed}`);
  const artMb = opts.artMb ?? 300 * opts.scale;
  if (!(artMb >= 0) || !Number.isFinite(artMb)) {
    throw new GenerateError(`--art-mb must be a number ≥ 0, not ${opts.artMb}`);
  }
  if (existsSync(opts.out) && readdirSync(opts.out).length > 0) {
    throw new GenerateError(`${opts.out} is not empty; give a new or empty folder with --out`);
  }

  const ctx = new GenContext(opts.out, opts.seed);
  const plan = planMod(ctx, opts.scale);
  for (const [path, text] of renderXsdFiles()) ctx.writeOther(`Schemas/xsd/${path}`, text);
  writeData(ctx, plan);
  writeArt(ctx, plan, artMb * 1_000_000);
  const unspliced = ctx.unsplicedFragments();
  if (unspliced.length) throw new Error(`generator bug: fragments never spliced: ${unspliced.join(", ")}`);

  const assets: Record<string, number> = {};
  for (const t of [...ctx.assets.keys()].sort()) assets[t] = ctx.assets.get(t)!;
  const sum = (f: (k: RefKind) => number) => REF_KINDS.reduce((n, k) => n + f(k), 0);
  const internal = sum((k) => ctx.refs[k].internal);
  const vanilla = sum((k) => ctx.refs[k].vanilla);
  return {
    out: opts.out,
    scale: opts.scale,
    seed: opts.seed,
    artMb,
    objects: plan.objects.length,
    files: {
      xml: ctx.xml.count,
      w3x: ctx.w3x.count,
      other: ctx.other.count,
      inactiveXml: ctx.xml.inactive,
      inactiveW3x: ctx.w3x.inactive,
    },
    bytes: { xml: ctx.xml.bytes, w3x: ctx.w3x.bytes, other: ctx.other.bytes },
    assets,
    assetTotal: Object.values(assets).reduce((a, b) => a + b, 0),
    inactiveAssets: ctx.inactiveAssets,
    references: ctx.refs,
    referenceTotal: internal + vanilla,
    internalReferences: internal,
    vanillaReferences: vanilla,
    poidReferences: ctx.poid,
    artReferences: REF_KINDS.reduce((n, k) => n + ctx.artRefs[k].internal + ctx.artRefs[k].vanilla, 0),
    defines: plan.defines.length,
    defineUses: ctx.defineUses,
    includes: { ...ctx.includes },
    xiIncludes: ctx.xi,
    fragments: plan.fragments.length,
    ms: Math.round(performance.now() - started),
  };
}

/** The summary as a plain-text table. */
export function renderSummary(s: GenerationSummary): string {
  const mb = (b: number) => (b / 1_000_000).toFixed(1);
  const n = (x: number) => x.toLocaleString("en-US");
  const rows: [string, string][] = [
    ["output", s.out],
    ["scale / seed / art", `${s.scale} / ${s.seed} / ${s.artMb} MB requested`],
    ["objects (unit and structure folders)", n(s.objects)],
    ["files: xml", `${n(s.files.xml)} (${n(s.files.inactiveXml)} inactive), ${mb(s.bytes.xml)} MB`],
    ["files: w3x", `${n(s.files.w3x)} (${n(s.files.inactiveW3x)} inactive), ${mb(s.bytes.w3x)} MB`],
    ["files: other (xsd, babproj)", `${n(s.files.other)}, ${mb(s.bytes.other)} MB`],
    ["assets", `${n(s.assetTotal)} (${n(s.inactiveAssets)} in inactive files)`],
    ...Object.entries(s.assets).map(([t, c]): [string, string] => [`  ${t}`, n(c)]),
    [
      "reference sites",
      `${n(s.referenceTotal)} (${n(s.internalReferences)} to the mod, ${n(s.vanillaReferences)} to vanilla)`,
    ],
    ...REF_KINDS.map((
      k,
    ): [string, string] => [
      `  ${k}`,
      `${n(s.references[k].internal + s.references[k].vanilla)} (${n(s.references[k].vanilla)} vanilla)`,
    ]),
    ["  Poid module references (local)", n(s.poidReferences)],
    ["  of which inside .w3x", n(s.artReferences)],
    ["defines / $uses in active files", `${n(s.defines)} / ${n(s.defineUses)}`],
    [
      "includes all / instance / reference",
      `${n(s.includes.all)} / ${n(s.includes.instance)} / ${n(s.includes.reference)}`,
    ],
    ["xi:includes (fragments)", `${n(s.xiIncludes)} (${s.fragments} fragment files)`],
    ["time", `${(s.ms / 1000).toFixed(2)} s`],
  ];
  const w = Math.max(...rows.map((r) => r[0].length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join("\n");
}
