// The CLI run in-process on the sample mod: outputs, JSON envelope, exit statuses and error sentences.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { parseCli } from "../../src/cli/args.ts";
import { timeLine } from "../../src/cli/commands/index.ts";
import { TOOL_VERSION } from "../../src/version.ts";
import { tempDirs } from "../temp-dirs.ts";
import { outsideMessage } from "../query/sample.ts";

const TMP = tempDirs();

const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");
const HOME = TMP.make("ra3-cli-home-");

async function ra3(...args: string[]) {
  const io = memoryIo(SAMPLE, { RA3_HOME: HOME });
  const code = await run(["--no-progress", ...args], io);
  return { code, out: io.stdout, err: io.stderr };
}

describe("argument parsing", () => {
  test("commands, aliases and flags become one typed config", () => {
    expect(parseCli(["--find", "X", "--type", "GameObject", "--json"])).toMatchObject({
      command: "find",
      positionals: ["X"],
      type: "GameObject",
      json: true,
    });
    expect(parseCli(["uses", "X", "--target-type", "A", "--target-type", "B", "--depth", "2"])).toMatchObject({
      targetTypes: ["A", "B"],
      depth: 2,
    });
    expect(parseCli(["install-skill", "--uninstall"])).toMatchObject({ command: "install-skill", uninstall: true });
    expect(parseCli(["--uninstall"])).toMatchObject({ command: "uninstall" });
  });
  test("usage errors are exact sentences", () => {
    expect(parseCli(["find"])).toEqual({ usageError: "ra3 find needs ID; see ra3 help find" });
    expect(parseCli(["frobnicate"])).toEqual({ usageError: 'unknown command "frobnicate"; see ra3 --help' });
    expect(parseCli(["list", "GameObject", "--limit", "0"])).toEqual({
      usageError: "--limit must be between 1 and 10000, got 0",
    });
    expect(parseCli(["list", "GameObject", "--limit", "ten"])).toEqual({
      usageError: '--limit must be a whole number, got "ten"',
    });
    expect(parseCli(["find", "X", "--depth", "2"])).toEqual({
      usageError: '--depth does not apply to "ra3 find"; see ra3 help find',
    });
    expect(parseCli(["status", "extra"])).toEqual({ usageError: 'ra3 status takes no arguments, got "extra"' });
    expect(parseCli(["find", "X", "--bogus"])).toEqual({ usageError: "unknown option '--bogus'; see ra3 --help" });
    expect(parseCli(["check", "--format", "xml"])).toEqual({
      usageError: '--format must be one of text, json, sarif, got "xml"',
    });
  });
});

describe("ra3 index: the time line", () => {
  const t = {
    scanMs: 9.4,
    reachMs: 0,
    schemaMs: 225.4,
    parseMs: 457,
    sdkMs: 55,
    linkMs: 63,
    artMs: 66,
    totalMs: 650.2,
  };
  // The schema is loaded before the build: its load is part of the wait. Fails if the first figure is
  // the build's total alone (what the line said before) or the phases list the schema again.
  test("the first figure is the schema's load and the build together; each is named", () => {
    expect(timeLine(t)).toBe("time: 875 ms (schema 225, build 650: scan 9, parse 457, SDK 55, link 63, art 66)");
    expect(timeLine({ ...t, schemaMs: 0 })).toBe(
      "time: 650 ms full build (scan 9, parse 457, SDK 55, link 63, art 66)",
    );
  });

  test("a cold ra3 index prints it: the first figure is the sum of the schema and the build", async () => {
    const io = memoryIo(SAMPLE, { RA3_HOME: TMP.make("ra3-cli-time-") });
    expect(await run(["--no-progress", "index"], io)).toBe(0);
    const m = /^time: (\d+) ms \(schema (\d+), build (\d+): scan \d+, parse \d+, SDK \d+, link \d+, art \d+\)$/m.exec(
      io.stdout,
    );
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBe(Number(m![2]) + Number(m![3]));
  });
});

describe("ra3 index: the schema cache of a first load", () => {
  // Rule: a cold run writes the XSD set's model cache after its answer and the snapshot, and writes it.
  // Fails if the deferred write is never made, or made before the snapshot.
  test("is in the home after the run, written after the snapshot; the next cold run loads from it", async () => {
    const home = TMP.make("ra3-cli-schema-cache-");
    const io = memoryIo(SAMPLE, { RA3_HOME: home });
    expect(await run(["--no-progress", "index"], io)).toBe(0);
    const cacheDir = join(home, "cache", "schema");
    const caches = readdirSync(cacheDir);
    expect(caches.length).toBe(1);
    const snapshots = readdirSync(join(home, "snapshots")).filter((f) => f.endsWith(".msgpack"));
    expect(snapshots.length).toBe(1);
    const cacheTime = statSync(join(cacheDir, caches[0])).mtimeMs;
    expect(cacheTime).toBeGreaterThanOrEqual(statSync(join(home, "snapshots", snapshots[0])).mtimeMs);
    // Another cold build (the snapshot removed) reads the model from the cache: the file is not rewritten.
    rmSync(join(home, "snapshots"), { recursive: true });
    const again = memoryIo(SAMPLE, { RA3_HOME: home });
    expect(await run(["--no-progress", "index"], again)).toBe(0);
    expect(statSync(join(cacheDir, caches[0])).mtimeMs).toBe(cacheTime);
  });
});

describe("ra3 on the sample mod", () => {
  test("--version", async () => {
    // Run from source: no commit or build date was embedded (the compiled binary's are in test/e2e/version.test.ts).
    expect(await ra3("--version")).toEqual({
      code: 0,
      out: `ra3 ${TOOL_VERSION} (from source, not a build)\n`,
      err: "",
    });
    expect(JSON.parse((await ra3("--version", "--json")).out)).toEqual({
      tool: "ra3",
      version: TOOL_VERSION,
      commit: null,
      buildDate: null,
    });
  });

  test("usage error exits 2 with one sentence on stderr", async () => {
    expect(await ra3("find")).toEqual({ code: 2, out: "", err: "ra3: ra3 find needs ID; see ra3 help find\n" });
  });

  test("find: text answer with file:line:column", async () => {
    const r = await ra3("find", "AlliedAthenaCannon");
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      "GameObject AlliedAthenaCannon\n  Data/Includes/Allied Units/AthenaCannon.xml:11:7  [project, compiled in static]\n  inheritFrom BaseVehicle\n",
    );
  });

  test("find --json: exactly one document, the short envelope and the answer the MCP tool gives", async () => {
    const r = await ra3("find", "SharedThing", "--type", "WeaponTemplate", "--json");
    const j = JSON.parse(r.out);
    expect(j).toEqual({
      index: { state: "ready", complete: true, stale: false, buildId: 1, builtAt: j.index.builtAt, projectDir: SAMPLE },
      result: {
        id: "SharedThing",
        type: "WeaponTemplate",
        definitions: [{ type: "WeaponTemplate", at: "Data/Includes/Weapons.xml:33", endLine: 33, streams: ["static"] }],
      },
    });
    expect(Date.parse(j.index.builtAt)).toBeGreaterThan(0);
  });

  test("status --json: the full envelope, with the SDK, game and counts", async () => {
    const j = JSON.parse((await ra3("status", "--json")).out);
    expect({ ...j.index, builtAt: undefined, buildId: undefined }).toEqual({
      state: "ready",
      complete: true,
      stale: false,
      projectDir: SAMPLE,
      sdkDir: null,
      game: "ra3",
      counts: { files: 15, assets: 28, sdkAssets: 0, references: 23, defines: 3, diagnostics: 4 },
    });
  });

  test("find: not found exits 1 with a suggestion", async () => {
    expect(await ra3("find", "AthenaCanon")).toEqual({
      code: 1,
      out: "",
      err:
        'ra3: no asset has the id "AthenaCanon"; similar ids: AthenaCannonBeam (project-only mode: vanilla assets are not indexed)\n',
    });
    expect(await ra3("find", "Zeppelin")).toEqual({
      code: 1,
      out: "",
      err:
        'ra3: no asset has the id "Zeppelin"; check the spelling or search display names with search_strings (project-only mode: vanilla assets are not indexed)\n',
    });
    expect(await ra3("find", "Athena")).toEqual({
      code: 1,
      out: "",
      err:
        'ra3: no asset has the id "Athena"; similar ids: AthenaFire, AUAthena_SKL, AUAthena_SKN, AthenaSplash, AthenaFireFile (project-only mode: vanilla assets are not indexed)\n',
    });
  });

  test("find with a type the id does not have", async () => {
    expect(await ra3("find", "SharedThing", "--type", "AudioEvent")).toEqual({
      code: 1,
      out: "",
      err:
        'ra3: "SharedThing" exists only as GameObject, WeaponTemplate, not as AudioEvent; retry with one of those types\n',
    });
  });

  test("list pages with an opaque cursor", async () => {
    const first = JSON.parse((await ra3("list", "WeaponTemplate", "--limit", "4", "--json")).out).result;
    expect(first.items.map((i: { id: string }) => i.id)).toEqual([
      "AthenaCannonBeam",
      "AthenaSplash",
      "AthenaWreckBurn",
      "SharedThing",
    ]);
    expect(first.total).toBe(6);
    const second =
      JSON.parse((await ra3("list", "WeaponTemplate", "--limit", "4", "--cursor", first.nextCursor, "--json")).out)
        .result;
    expect([second.items.map((i: { id: string }) => i.id), second.nextCursor]).toEqual([[
      "UnusedTestWeapon",
      "VehicleDeathExplosion",
    ], undefined]);
    expect(await ra3("list", "WeaponTemplate", "--cursor", "garbage")).toEqual({
      code: 2,
      out: "",
      err: "ra3: the cursor is not valid; pass the nextCursor of a previous answer or omit it\n",
    });
  });

  test("refs --kind: only those kinds; an unknown kind is a usage error naming the kinds", async () => {
    expect(await ra3("refs", "BaseVehicle", "--kind", "inheritFrom")).toEqual({
      code: 0,
      out: [
        "GameObject BaseVehicle: 2 references of kind inheritFrom",
        "  Data/Includes/Allied Units/AthenaCannon.xml:12:16  GameObject AlliedAthenaCannon  inheritFrom",
        "  Data/Standalone.xml:8:49  GameObject ExperimentalTank  inheritFrom  (file not included)",
        "",
      ].join("\n"),
      err: "",
    });
    expect(await ra3("refs", "BaseVehicle", "--kind", "children")).toEqual({
      code: 2,
      out: "",
      err:
        'ra3: "children" is not a reference kind; use one of attribute, content, inheritFrom, default, name, manifest, heuristic\n',
    });
  });

  test("define", async () => {
    expect(await ra3("define", "$athena_damage")).toEqual({
      code: 0,
      out:
        '$ATHENA_DAMAGE = "120"  Data/Includes/Defines.xml:5\n2 uses in compiled or referenced files; 2 use sites in all:\n  Data/Includes/Weapons.xml:8:27  DamageNugget@Damage\n  Data/Includes/Weapons.xml:15:26  DamageNugget@Damage\n',
      err: "",
    });
  });

  test("include shows every candidate tried", async () => {
    const r = await ra3("include", "ART:AUAthena_SKN.w3x", "--json");
    const res = JSON.parse(r.out).result;
    expect([res.resolved, res.twoLetterRule, res.active, res.streams]).toEqual([
      "Art/AU/AUAthena_SKN.w3x",
      true,
      undefined, // active, the usual
      ["static"],
    ]);
    expect(res.tried.at(-1)).toBe("Art/au/AUAthena_SKN.w3x");
  });

  test("file: a file not included, and a path outside the project", async () => {
    const r = await ra3("file", "Data/Standalone.xml");
    expect(r.out.split("\n")[0]).toBe("Data/Standalone.xml is not included: no entry point reaches it");
    expect(await ra3("file", "/etc/passwd")).toEqual({
      code: 1,
      out: "",
      err: `ra3: ${outsideMessage("/etc/passwd", SAMPLE, "a path")}\n`,
    });
  });

  test("no project: exit 3 with what to do", async () => {
    const empty = TMP.make("ra3-noproject-");
    const io = memoryIo(empty, { RA3_HOME: HOME });
    expect(await run(["find", "X"], io)).toBe(3);
    expect(io.stderr).toBe(
      `ra3: no Red Alert 3 mod found from ${empty}: run ra3 inside a mod folder (one with Data/Mod.xml) or pass --project DIR\n`,
    );
  });

  test("a bad --sdk is an environment error", async () => {
    const r = await ra3("find", "X", "--sdk", "/nonexistent/sdk");
    expect(r.code).toBe(3);
    expect(r.err).toStartWith("ra3: --sdk /nonexistent/sdk is not a usable SDK: ");
  });
});

describe("ra3 install-skill", () => {
  test("installs into the default targets, is idempotent, and uninstalls", async () => {
    const userHome = TMP.make("ra3-user-");
    const go = async (...args: string[]) => {
      const io = memoryIo(userHome, { HOME: userHome, USERPROFILE: userHome });
      const code = await run(["install-skill", "--home", join(userHome, ".ra3modxml"), ...args], io);
      return { code, out: io.stdout, err: io.stderr };
    };
    const agents = join(userHome, ".agents", "skills", "ra3-mod-xml");
    const claude = join(userHome, ".claude", "skills", "ra3-mod-xml");
    expect(await go()).toEqual({ code: 0, out: `installed ${agents}\ninstalled ${claude}\n`, err: "" });
    expect(await go()).toEqual({ code: 0, out: `unchanged ${agents}\nunchanged ${claude}\n`, err: "" });
    expect(await go("--uninstall")).toEqual({ code: 0, out: `removed   ${agents}\nremoved   ${claude}\n`, err: "" });
  });
});

describe("hidden characters from the mod reach the terminal escaped", () => {
  test("an ESC in a file name and a bidi override in an id: ra3 list prints them as escapes", async () => {
    const dir = TMP.make("ra3-cli-hidden-");
    mkdirSync(join(dir, "Data"));
    writeFileSync(
      join(dir, "Data", "Mod.xml"),
      `<AssetDeclaration xmlns="uri:ea.com:eala:asset"><WeaponTemplate id="Gun\u202Ekcatta"/></AssetDeclaration>\n`,
    );
    writeFileSync(
      join(dir, "Data", "Odd\u001B[31m.xml"),
      `<AssetDeclaration xmlns="uri:ea.com:eala:asset"><WeaponTemplate id="Odd"/></AssetDeclaration>\n`,
    );
    const io = memoryIo(dir, { RA3_HOME: TMP.make("ra3-cli-hidden-home-") });
    expect(await run(["--no-progress", "--sdk", "", "list", "WeaponTemplate"], io)).toBe(0);
    expect(io.stdout).not.toContain("\u001B");
    expect(io.stdout).not.toContain("\u202E");
    expect(io.stdout).toContain("Gun\\u{202E}kcatta");
    expect(io.stdout).toContain("Data/Odd\\u{001B}[31m.xml");
  });
});
