/**
 * A one-shot build (`ra3 index`: no XML-only index is published) asks the include walk for the files it
 * wants beyond the scan once, after the art, instead of once before the art and again after it. Its
 * index, records, export bytes and report must equal a two-phase build's (a server's), also when the
 * wanted files are XML and art out of the project, and XML that only an art file includes.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { LinkedIndex } from "../../src/index/linked.ts";
import { resolveConfig } from "../../src/workspace/config.ts";
import { type BuildReport, Workspace } from "../../src/workspace/workspace.ts";
import { generateCorpus } from "../../scripts/gen-corpus/generate.ts";
import { CORPORA } from "../../scripts/corpora.ts";
import { tempDirs } from "../temp-dirs.ts";
import { exported, ordered } from "./fresh-build.ts";

const TMP = tempDirs();

const decl = (body: string, includes = "") =>
  `<?xml version="1.0" encoding="utf-8"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n${
    includes ? `  <Includes>\n${includes}  </Includes>\n` : ""
  }${body}</AssetDeclaration>\n`;
const inc = (type: string, source: string) => `    <Include type="${type}" source="${source}"/>\n`;
const weapon = (id: string) => `  <WeaponTemplate id="${id}"/>\n`;
const art = (id: string, includes = "") =>
  `\ufeff<?xml version="1.0" encoding="utf-8"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n${
    includes ? `  <Includes>\n${includes}  </Includes>\n` : ""
  }  <W3DMesh id="${id}"><Vertices>${"0 0 0\n".repeat(50)}</Vertices></W3DMesh>\n</AssetDeclaration>\n`;

function write(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

interface Built {
  readonly ws: Workspace;
  readonly report: BuildReport;
  readonly linked: LinkedIndex;
}

async function buildOf(
  request: { project: string; sdk?: string; schema?: string | null },
  publishXmlPhase: boolean,
): Promise<Built> {
  const cfg = resolveConfig({
    project: request.project,
    sdk: request.sdk ?? "",
    schema: request.schema ?? null,
    home: TMP.make("ra3-oneshot-home-"),
    env: {},
  });
  if ("envError" in cfg) throw new Error(cfg.envError);
  const ws = new Workspace(cfg);
  // The server's full build (two phases, every XML file first) against `ra3 index`'s.
  const report = await ws.build(() => {}, undefined, { publishXmlPhase, reachableFirst: false });
  return { ws, report, linked: ws.linked! };
}

async function expectSameAsTwoPhase(
  request: { project: string; sdk?: string; schema?: string | null },
): Promise<{ once: Built; twice: Built }> {
  const twice = await buildOf(request, true);
  const once = await buildOf(request, false);
  expect(ordered(once.linked, request.project)).toEqual(ordered(twice.linked, request.project));
  const order = (b: Built) => [...b.ws.core.values()].map((f) => [f.path, f.stamp]);
  expect(order(once)).toEqual(order(twice));
  expect(exported(once.ws)).toBe(exported(twice.ws));
  expect(once.report.unreadable).toEqual(twice.report.unreadable);
  expect([once.report.parsedFiles, once.report.sdkFiles, once.report.artFiles]).toEqual([
    twice.report.parsedFiles,
    twice.report.sdkFiles,
    twice.report.artFiles,
  ]);
  return { once, twice };
}

describe("a one-shot build walks for wanted files once, after the art: the same index as a server's build", () => {
  test("XML and art out of the project, and XML only an art file includes (in and out of the project)", async () => {
    const base = TMP.make("ra3-oneshot-");
    const dir = join(base, "Mod");
    const shared = join(base, "Shared");
    write(shared, "Common.xml", decl(weapon("CommonWeapon"), inc("all", "Deeper.xml")));
    write(shared, "Deeper.xml", decl(weapon("DeeperWeapon")));
    write(shared, "SharedTank.w3x", art("SharedTankMesh", inc("all", "FromSharedArt.xml")));
    write(shared, "FromSharedArt.xml", decl(weapon("FromSharedArtWeapon")));
    write(shared, "FromArt.xml", decl(weapon("FromArtWeapon")));
    write(
      dir,
      "Data/Mod.xml",
      decl(
        weapon("ModWeapon"),
        inc("all", "../../Shared/Common.xml") + inc("all", "../Art/Tank.w3x") +
          inc("all", "../../Shared/SharedTank.w3x"),
      ),
    );
    write(dir, "Art/Tank.w3x", art("TankMesh", inc("all", "../../Shared/FromArt.xml")));
    const { once } = await expectSameAsTwoPhase({ project: dir });
    // Out of the project: Common, Deeper, FromArt and FromSharedArt (XML), SharedTank (art).
    expect([once.report.parsedFiles, once.report.sdkFiles, once.report.artFiles]).toEqual([1, 4, 2]);
    for (const id of ["CommonWeapon", "DeeperWeapon", "FromArtWeapon", "FromSharedArtWeapon", "SharedTankMesh"]) {
      expect([id, once.linked.findAssets(id).length]).toEqual([id, 1]);
    }
    expect(once.linked.wanted).toEqual([]);
  });

  test("a generated corpus (scale 0.03, its own XSD set)", async () => {
    const dir = join(TMP.make("ra3-oneshot-gen-"), "Gen");
    generateCorpus({ out: dir, scale: 0.03, seed: 5, artMb: 1 });
    const { once } = await expectSameAsTwoPhase({ project: dir, schema: join(dir, "Schemas", "xsd") });
    expect(once.report.artFiles).toBeGreaterThan(20);
  }, 60_000);

  const tw = join(CORPORA, "tw-sdk");
  test.skipIf(!existsSync(tw))("the TW SDK in SDK mode (vanilla streams, manifests)", async () => {
    await expectSameAsTwoPhase({ project: join(tw, "Mods", "Commander"), sdk: tw });
  }, 60_000);
});
