/**
 * In-memory index fixtures: a map of relative paths to file contents becomes a linked index, through
 * exactly the same core, linker and project model the binary uses (only the directory lister is fake).
 */
import { CaseResolver } from "../../src/project/case-resolver.ts";
import { describeProject } from "../../src/project/detect.ts";
import { MemoryDirectoryLister } from "../project/memory-lister.ts";
import { validateSdk } from "../../src/project/sdk.ts";
import type { SchemaQueries } from "../../src/schema/model.ts";
import { IndexCore } from "../../src/index/core.ts";
import type { LinkedIndex } from "../../src/index/linked.ts";
import { type LinkOptions, type LinkPorts, makeLinkPorts } from "../../src/workspace/link-inputs.ts";
import { resolveIncludeQuery, type ResolveIncludeResult } from "../../src/query/includes.ts";
import { isQueryError } from "../../src/query/envelope.ts";
import { writeManifest } from "../formats/manifest-writer.ts";

export const ROOT = "/mods/Test Mod";
export const SDK = "/sdk";

export interface MemFixture {
  readonly linked: LinkedIndex;
  readonly core: IndexCore;
  readonly ports: LinkPorts;
  readonly lister: MemoryDirectoryLister;
}

/** Paths are relative to the project root; keys starting with `sdk:` are relative to {@link SDK}. */
export function memIndex(
  files: Record<string, string | Uint8Array>,
  schema: SchemaQueries | null = null,
  options: LinkOptions & { readonly lock?: readonly string[] } = {},
): MemFixture {
  const abs = (k: string) => (k.startsWith("sdk:") ? `${SDK}/${k.slice(4)}` : `${ROOT}/${k}`);
  const lister = new MemoryDirectoryLister(Object.keys(files).map(abs));
  for (const d of options.lock ?? []) lister.lock(abs(d));
  const resolver = new CaseResolver(lister);
  const layout = describeProject(ROOT, resolver);
  const hasSdk = Object.keys(files).some((k) => k.startsWith("sdk:"));
  const sdk = hasSdk ? validateSdk(SDK, resolver) : null;
  const core = new IndexCore(schema);
  const bytes = (v: string | Uint8Array) => (typeof v === "string" ? new TextEncoder().encode(v) : v);
  // Project files are all loaded (as the driver's scan does); SDK files only when the walk asks.
  core.applyChanges(
    Object.entries(files).filter(([k]) => !k.startsWith("sdk:")).map(([k, v]) => ({ path: abs(k), bytes: bytes(v) })),
  );
  const ports = makeLinkPorts(layout, sdk, schema, resolver, core, options);
  const byPath = new Map(Object.entries(files).map(([k, v]) => [abs(k).toLowerCase(), { path: abs(k), v }]));
  for (let round = 0; round < 20; round++) {
    const wanted = core.wanted(ports.inputs).filter((p) => byPath.has(p.toLowerCase()) && !core.file(p));
    if (!wanted.length) break;
    core.applyChanges(
      wanted.map((p) => ({ path: byPath.get(p.toLowerCase())!.path, bytes: bytes(byPath.get(p.toLowerCase())!.v) })),
    );
  }
  return { linked: core.link(ports.inputs), core, ports, lister };
}

/** An `<AssetDeclaration>` document around `body`. */
export function doc(body: string, extraNs = ""): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset"${extraNs}>\n${body}\n</AssetDeclaration>\n`;
}

/** `<Includes>` with `[type, source]` pairs. */
export function includes(...items: [string, string][]): string {
  return `\t<Includes>\n${
    items.map(([t, s]) => `\t\t<Include type="${t}" source="${s}" />`).join("\n")
  }\n\t</Includes>`;
}

/** Compact views for assertions. */
export function assetsOf(linked: LinkedIndex): string[] {
  return linked.assets.map((a) =>
    `${a.type}:${a.id}@${rel(a.file)}:${a.line} ${a.origin}${a.state === "compiled" ? "" : ` ${a.state}`}${
      a.viaInstance ? " instance" : ""
    }${a.fileHasErrors ? " fileHasErrors" : ""} [${a.streams.join(",")}]`
  );
}

export function rel(p: string): string {
  if (p.startsWith(ROOT + "/")) return p.slice(ROOT.length + 1);
  if (p.startsWith(SDK + "/")) return "sdk:" + p.slice(SDK.length + 1);
  return p;
}

export function diagnosticsOf(linked: LinkedIndex): string[] {
  return linked.diagnostics.map((d) =>
    `${d.file ? rel(d.file) : "-"}:${d.line}:${d.column} ${d.severity} ${d.code}: ${d.message}`
  );
}

/**
 * A mod whose Data/Mod.xml reference-includes Shared.xml, which its .babproj maps to a prebuilt
 * `BuiltMods/Mods/Shared.manifest` in the SDK (written when `withManifest`, holding WeaponTemplate:SharedGun).
 */
export function referenceIncludeMod(withManifest: boolean): Record<string, string | Uint8Array> {
  const babproj = `<?xml version="1.0"?>
<BinaryAssetBuilderProject xmlns="urn:xmlns:ea.com:babproject">
  <Stream Source="G:\\RA3 MOD SDK\\Mods\\Test Mod\\data\\mod.xml">
    <Configuration Name="" Default="true">
      <StreamReference ReferenceName="Shared.xml" ReferenceManifest="G:\\RA3 MOD SDK\\BuiltMods\\Mods\\Shared.manifest" ReferenceConfiguration="" />
    </Configuration>
  </Stream>
</BinaryAssetBuilderProject>`;
  return {
    "mod.babproj": babproj,
    "Data/Mod.xml": doc(includes(["reference", "Shared.xml"]) + `\n<GameObject id="Tank" />`),
    "Data/Shared.xml": doc(`<WeaponTemplate id="SharedGun" />`),
    "sdk:Schemas/xsd/CnC3Types.xsd": "",
    ...(withManifest
      ? {
        "sdk:BuiltMods/Mods/Shared.manifest":
          writeManifest({ version: 5, assets: [{ name: "WeaponTemplate:SharedGun", source: "DATA:Shared.xml" }] })
            .bytes,
      }
      : {}),
  };
}

/** resolve_include of `Shared.xml` from Data/Mod.xml in a {@link referenceIncludeMod}; throws on a query error. */
export function resolveSharedInclude(f: MemFixture): ResolveIncludeResult {
  const r = resolveIncludeQuery(
    f.linked,
    f.ports.projectResolver,
    { modXml: null },
    "Shared.xml",
    "Data/Mod.xml",
    f.ports.references,
  );
  if (isQueryError(r)) throw new Error(r.error.message);
  return r;
}
