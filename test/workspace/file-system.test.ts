/**
 * What the file system makes awkward, on real temporary folders: a mod entered through a symlink (by
 * the working directory and by `--project .`) keeps its logical name, which its `DATA:<ModName>/…`
 * self-includes need; two paths that differ only in letter case; a folder that cannot be listed but
 * whose files can be read (mode 711, checked as an unprivileged user when the suite runs as root).
 * The CLI runs as a child process (the working directory and the user are the point).
 */
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { logicalCwd } from "../../src/project/cwd.ts";
import { resolveConfig } from "../../src/workspace/config.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { listFiles } from "../../src/query/file-list.ts";
import { doc, includes } from "../index/fixture.ts";
import { ok } from "../query/sample.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();
const MAIN = join(import.meta.dirname, "..", "..", "src", "main.ts");

/** Runs `ra3 ARGS --json` from `cwd` with `env` (plus a private home), parsed. */
function ra3(cwd: string, env: Record<string, string>, args: string[], run?: (cmd: string[]) => string[]) {
  const home = TMP.make("ra3-fs-home-");
  chmodSync(home, 0o777);
  const cmd = [process.execPath, MAIN, ...args, "--json", "--no-progress", "--sdk", "", "--home", home];
  const [exe, ...rest] = run ? run(cmd) : cmd;
  const r = spawnSync(exe, rest, { cwd, env: { PATH: process.env.PATH ?? "", HOME: home, ...env }, encoding: "utf8" });
  if (!r.stdout) throw new Error(`ra3 ${args.join(" ")} printed nothing; stderr: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

describe("the project is the path the user gave, never its resolved links", () => {
  /** TMP/store/archive-2024-v3 holds the mod; TMP/mods/MyMod links to it. */
  function linkedMod(): { link: string; real: string } {
    const root = TMP.make("ra3-link-");
    const real = join(root, "store", "archive-2024-v3");
    mkdirSync(join(real, "Data"), { recursive: true });
    // The mod includes its own files through DATA:<ModFolderName>/…, found via the folder above the mod.
    writeFileSync(join(real, "Data", "Mod.xml"), doc(includes(["all", "DATA:MyMod/Data/Units.xml"])));
    writeFileSync(join(real, "Data", "Units.xml"), doc(`<GameObject id="Tank" />`));
    mkdirSync(join(root, "mods"));
    const link = join(root, "mods", "MyMod");
    symlinkSync(real, link, "dir");
    return { link, real: realpathSync(real) };
  }

  test("logicalCwd: $PWD when it names the same folder, else the physical one", () => {
    const { link, real } = linkedMod();
    expect(logicalCwd({ PWD: link }, real)).toBe(link);
    expect(logicalCwd({ PWD: TMP.make("ra3-other-") }, real)).toBe(real);
    expect(logicalCwd({ PWD: "relative/path" }, real)).toBe(real);
    expect(logicalCwd({}, real)).toBe(real);
  });

  test("started inside the linked folder (a shell sets PWD): the logical path, the self-include resolves", () => {
    const { link } = linkedMod();
    const r = ra3(link, { PWD: link }, ["file", "Data/Units.xml"]);
    // Compiled, the usual state, is left out of the answer; the chain's one hop is the self-include.
    expect([r.index.projectDir, r.result.state, r.result.chain.hops]).toEqual([link, undefined, [{
      at: "Data/Mod.xml:4",
      source: "DATA:MyMod/Data/Units.xml",
    }]]);
  });

  test("--project . from inside it: the same", () => {
    const { link } = linkedMod();
    const r = ra3(link, { PWD: link }, ["file", "Data/Units.xml", "--project", "."]);
    expect([r.index.projectDir, r.result.state, r.result.chain.entry]).toEqual([link, undefined, "Data/Mod.xml"]);
  });

  test("--project naming the link from elsewhere: the same", () => {
    const { link } = linkedMod();
    const r = ra3(TMP.make("ra3-elsewhere-"), {}, ["file", "Data/Units.xml", "--project", link]);
    expect([r.index.projectDir, r.result.state, r.result.chain.entry]).toEqual([link, undefined, "Data/Mod.xml"]);
  });

  test("(without PWD only the physical path is known: the self-include then misses, as it would for the builder)", () => {
    const { link, real } = linkedMod();
    const r = ra3(link, {}, ["file", "Data/Units.xml"]);
    expect([r.index.projectDir, r.result.state]).toEqual([real, "not-included"]);
  });
});

describe("two paths that differ only in letter case (a case-sensitive file system)", () => {
  test("the first in sorted order is the file, for every include spelling; the other is named in a warning", async () => {
    const mod = TMP.make("ra3-case-");
    mkdirSync(join(mod, "Data"));
    writeFileSync(join(mod, "Data", "Mod.xml"), doc(includes(["all", "UNITS.XML"], ["all", "units.xml"])));
    writeFileSync(join(mod, "Data", "Units.xml"), doc(`<GameObject id="Upper" />`));
    writeFileSync(join(mod, "Data", "units.xml"), doc(`<GameObject id="Lower" />`));
    const cfg = resolveConfig({ project: mod, sdk: "", schema: null, home: TMP.make("ra3-h-"), env: {} });
    if ("envError" in cfg) throw new Error(cfg.envError);
    const ws = new Workspace(cfg);
    await ws.build(() => {}, undefined, { publishXmlPhase: false });
    const linked = ws.linked!;
    ws.close();
    expect(ok(listFiles(linked)).items.map((i) => `${i.file} ${i.state}`)).toEqual([
      "Data/Mod.xml compiled",
      "Data/Units.xml compiled",
    ]);
    expect(linked.assets.map((a) => a.id)).toEqual(["Upper"]);
    expect(linked.includes.map((e) => `${e.source} → ${e.to?.slice(mod.length + 1)}`)).toEqual([
      "UNITS.XML → Data/Units.xml",
      "units.xml → Data/Units.xml",
    ]);
    expect(linked.diagnostics.filter((d) => d.code === "case-collision").map((d) => [d.file, d.message])).toEqual([[
      join(mod, "Data", "Units.xml"),
      "Data/units.xml differs from this file's path only in letter case: on Windows they are one file. ra3 uses Data/Units.xml (the first in sorted order) for every include and ignores Data/units.xml; rename or remove one",
    ]]);
  });
});

describe("a folder that cannot be listed but whose files can be read (mode 711)", () => {
  /** A mod whose Data/Secret is mode 711; its Units.xml is readable by anyone. */
  function lockedMod(): string {
    const mod = TMP.make("ra3-711-");
    chmodSync(mod, 0o755);
    mkdirSync(join(mod, "Data", "Secret"), { recursive: true });
    chmodSync(join(mod, "Data"), 0o755);
    writeFileSync(join(mod, "Data", "Mod.xml"), doc(includes(["all", "Secret/Units.xml"])));
    writeFileSync(join(mod, "Data", "Secret", "Units.xml"), doc(`<GameObject id="Hidden" />`));
    writeFileSync(join(mod, "Data", "Secret", "Unused.xml"), doc(`<GameObject id="Unused" />`));
    for (const f of ["Data/Mod.xml", "Data/Secret/Units.xml", "Data/Secret/Unused.xml"]) chmodSync(join(mod, f), 0o644);
    chmodSync(join(mod, "Data", "Secret"), 0o711);
    return mod;
  }
  // root ignores permissions: run as the unprivileged `nobody` (uid 65534) through setpriv.
  const asRoot = process.getuid?.() === 0;
  const setpriv = spawnSync("setpriv", ["--version"]).status === 0;
  // The checkout may be unreadable for `nobody` (a clone in a `mktemp -d` folder is mode 700), so the
  // unprivileged runs use a copy of the compiled binary in a folder anyone can read, when there is one.
  const binary = join(import.meta.dirname, "..", "..", "dist", "ra3");
  let readableBinary: string | null = null;
  const asNobody = (cmd: string[]) => {
    if (existsSync(binary)) {
      if (!readableBinary) {
        const dir = TMP.make("ra3-711-bin-");
        chmodSync(dir, 0o755);
        readableBinary = join(dir, "ra3");
        copyFileSync(binary, readableBinary);
        chmodSync(readableBinary, 0o755);
      }
      cmd = [readableBinary, ...cmd.slice(2)];
    }
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", ...cmd];
  };
  const unprivileged = (cmd: string[]) => (asRoot ? asNobody(cmd) : cmd);

  test.skipIf(asRoot && !setpriv)("the include resolves by a direct stat; one warning names the folder", () => {
    const mod = lockedMod();
    const r = ra3(mod, {}, ["check", "--project", mod], unprivileged);
    expect(r.result.diagnostics.map((d: { code: string; message: string }) => `${d.code}: ${d.message}`)).toEqual([
      "unlistable-folder: the folder Data/Secret cannot be listed (permission denied): its files are found only when an include names them in their exact letter case, and files nothing includes there are not indexed; give the folder read permission",
    ]);
    const f = ra3(mod, {}, ["file", "Data/Secret/Units.xml", "--project", mod], unprivileged);
    expect([f.result.state, f.result.chain.entry, f.result.assets]).toEqual([undefined, "Data/Mod.xml", 1]);
    // The file nothing includes cannot be seen at all.
    const u = ra3(mod, {}, ["files", "--project", mod], unprivileged);
    expect(u.result.items.map((i: { file: string }) => i.file)).toEqual(["Data/Mod.xml", "Data/Secret/Units.xml"]);
  });
});
