/**
 * Bad input: each case gets one exact diagnostic (code, severity, message, line, column) and loses
 * nothing else — the other files' assets are still indexed, and the bad file keeps what can be read
 * around the problem (the tokenizer recovers at the error and goes on). In-memory fixtures go through the real core; the unreadable file goes through the
 * real driver (`Workspace`) on a temporary folder.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { resolveConfig } from "../../src/workspace/config.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { assetsOf, diagnosticsOf, doc, includes, memIndex } from "./fixture.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

const sample = new Schema(
  loadSchema(join(import.meta.dirname, "..", "..", "examples", "sample-mod", "Schemas", "xsd")).model!,
);
const utf8 = (s: string) => new TextEncoder().encode(s);
const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...utf8(p)] : p)));

/** Mod.xml including `bad` and a healthy Other.xml (whose asset must survive whatever `bad` holds). */
function project(bad: string, content: string | Uint8Array, extra: Record<string, string | Uint8Array> = {}) {
  return {
    "Data/Mod.xml": doc(includes(["all", bad], ["all", "Other.xml"])),
    "Data/Other.xml": doc(`<WeaponTemplate id="Safe" />`),
    [`Data/${bad}`]: content,
    ...extra,
  };
}
const SAFE = "WeaponTemplate:Safe@Data/Other.xml:3 project [static]";

describe("malformed XML: the error is reported where it is, the records around it are kept", () => {
  test("a mismatched end tag", () => {
    const { linked } = memIndex(
      project(
        "Bad.xml",
        doc(
          `<WeaponTemplate id="Before" />\n<GameObject id="Tank">\n<Draws></Behaviors>\n</GameObject>\n<WeaponTemplate id="After" />`,
        ),
      ),
      sample,
    );
    expect(diagnosticsOf(linked)).toEqual([
      "Data/Bad.xml:5:8 error xml-syntax: end tag </Behaviors> does not match start tag <Draws> (line 5, column 1)",
      // </Behaviors> names nothing open, so it is skipped; </GameObject> then closes Draws too.
      "Data/Bad.xml:6:1 error xml-syntax: end tag </GameObject> does not match start tag <Draws> (line 5, column 1)",
    ]);
    expect(assetsOf(linked)).toEqual([
      SAFE,
      "WeaponTemplate:Before@Data/Bad.xml:3 project fileHasErrors [static]",
      "GameObject:Tank@Data/Bad.xml:4 project fileHasErrors [static]",
      "WeaponTemplate:After@Data/Bad.xml:7 project fileHasErrors [static]",
    ]);
  });

  test("an element never closed", () => {
    const { linked } = memIndex(
      project(
        "Bad.xml",
        `<?xml version="1.0"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n<WeaponTemplate id="Before" />\n<GameObject id="Tank" CommandSet="Cmds">\n`,
      ),
      sample,
    );
    expect(diagnosticsOf(linked)).toEqual([
      // The unclosed object's reference was read before the error and is kept (an SDK would check it).
      "-:0:0 information external-references: 1 reference points at assets outside the project",
      "Data/Bad.xml:5:1 error xml-syntax: end of file reached, but element <GameObject> (line 4, column 1) is not closed",
    ]);
    expect(assetsOf(linked)).toEqual([
      SAFE,
      "WeaponTemplate:Before@Data/Bad.xml:3 project fileHasErrors [static]",
      "GameObject:Tank@Data/Bad.xml:4 project fileHasErrors [static]",
    ]);
    expect(linked.sites.map((s) => `${s.value} ${s.line}:${s.column}`)).toEqual(["Cmds 4:35"]);
  });

  test("an unquoted attribute value", () => {
    const { linked } = memIndex(
      project(
        "Bad.xml",
        doc(`<WeaponTemplate id="Before" />\n<GameObject id="Tank" Side=Allies />\n<WeaponTemplate id="After" />`),
      ),
      sample,
    );
    expect(diagnosticsOf(linked)).toEqual([
      "Data/Bad.xml:4:28 error xml-syntax: the value of attribute 'Side' must be quoted",
    ]);
    // The broken tag ends at its `>` with the attributes before the error: Tank and After are still found.
    expect(assetsOf(linked)).toEqual([
      SAFE,
      "WeaponTemplate:Before@Data/Bad.xml:3 project fileHasErrors [static]",
      "GameObject:Tank@Data/Bad.xml:4 project fileHasErrors [static]",
      "WeaponTemplate:After@Data/Bad.xml:5 project fileHasErrors [static]",
    ]);
  });
});

describe("includes", () => {
  test("a missing include target is reported at its source attribute; the walk goes on", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(includes(["all", "Nope.xml"], ["all", "Other.xml"])),
      "Data/Other.xml": doc(`<WeaponTemplate id="Safe" />`),
    }, sample);
    expect(diagnosticsOf(linked)).toEqual([
      'Data/Mod.xml:4:31 warning include-not-found: include "Nope.xml" was not found',
    ]);
    expect(assetsOf(linked)).toEqual([SAFE]);
  });

  test("an include cycle is reported with its path at the include closing it; every file of the cycle is indexed once", () => {
    const { linked } = memIndex(
      project("A.xml", doc(includes(["all", "B.xml"]) + `\n<GameObject id="InA" />`), {
        "Data/B.xml": doc(includes(["all", "A.xml"]) + `\n<GameObject id="InB" />`),
      }),
      sample,
    );
    expect(diagnosticsOf(linked)).toEqual([
      'Data/B.xml:4:31 warning include-cycle: include cycle: Data/A.xml → Data/B.xml → Data/A.xml (the include of "A.xml" is skipped)',
    ]);
    expect(assetsOf(linked)).toEqual([
      SAFE,
      "GameObject:InA@Data/A.xml:6 project [static]",
      "GameObject:InB@Data/B.xml:6 project [static]",
    ]);
    expect(linked.streams.map((s) => [s.name, s.files])).toEqual([["static", 4]]);
  });

  test("a chain of 250 includes, each file also including the first: 250 cycles, each warning's chain shortened", () => {
    // Each cycle edge of the deep chain named the whole stack: n warnings of up to n paths (n is bounded by
    // the include depth limit, 300).
    const files: Record<string, string> = { "Data/Mod.xml": doc(includes(["all", "C/F0.xml"])) };
    const n = 250;
    for (let i = 0; i < n; i++) {
      const next = i + 1 < n ? [["all", `F${i + 1}.xml`] as [string, string]] : [];
      files[`Data/C/F${i}.xml`] = doc(includes(...next, ["all", "F0.xml"]));
    }
    const { linked } = memIndex(files, sample);
    const cycles = linked.diagnostics.filter((d) => d.code === "include-cycle");
    expect(cycles.length).toBe(n);
    expect(cycles.map((d) => d.message).slice(0, 2)).toEqual([
      'include cycle: Data/C/F0.xml → Data/C/F0.xml (the include of "F0.xml" is skipped)',
      'include cycle: Data/C/F0.xml → Data/C/F1.xml → Data/C/F0.xml (the include of "F0.xml" is skipped)',
    ]);
    expect(cycles.find((d) => d.file!.endsWith("F249.xml"))!.message).toBe(
      "include cycle: Data/C/F0.xml → Data/C/F1.xml → Data/C/F2.xml → Data/C/F3.xml → Data/C/F4.xml → " +
        'Data/C/F5.xml → … (244 more) → Data/C/F0.xml (the include of "F0.xml" is skipped)',
    );
    expect(Math.max(...cycles.map((d) => d.message.length))).toBeLessThan(250);
  });

  test("a path with spaces (and Windows backslashes) resolves like any other", () => {
    const { linked } = memIndex(
      {
        "Data/Mod.xml": doc(includes(["all", "Allied Units/Tank File.xml"], ["all", "Allied Units\\Jeep File.xml"])),
        "Data/Allied Units/Tank File.xml": doc(`<GameObject id="Tank" />`),
        "Data/Allied Units/Jeep File.xml": doc(`<GameObject id="Jeep" />`),
      },
      sample,
    );
    expect(diagnosticsOf(linked)).toEqual([]);
    expect(assetsOf(linked)).toEqual([
      "GameObject:Tank@Data/Allied Units/Tank File.xml:3 project [static]",
      "GameObject:Jeep@Data/Allied Units/Jeep File.xml:3 project [static]",
    ]);
  });
});

describe("encodings and file contents", () => {
  test("Latin-1 bytes without a declaration: one encoding warning at the first bad byte, decoded as windows-1252", () => {
    const { linked } = memIndex(
      project(
        "Latin.xml",
        bytes(
          `<?xml version="1.0"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n<GameObject id="Caf`,
          [0xe9],
          `" />\n</AssetDeclaration>\n`,
        ),
      ),
      sample,
    );
    expect(diagnosticsOf(linked)).toEqual([
      "Data/Latin.xml:3:20 warning encoding: not valid UTF-8 at byte 90 (line 3, column 20); decoded as windows-1252",
    ]);
    expect(assetsOf(linked)).toEqual([SAFE, "GameObject:Café@Data/Latin.xml:3 project [static]"]);
  });

  test("a windows-1252 declaration: no warning, the right characters (including the 0x80–0x9F range)", () => {
    const { linked } = memIndex(
      project(
        "Win.xml",
        bytes(
          `<?xml version="1.0" encoding="windows-1252"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n<Defines><Define name="QUOTE" value="`,
          [0x93, 0x80, 0x94],
          `" /></Defines>\n<GameObject id="Caf`,
          [0xe9],
          `" />\n</AssetDeclaration>\n`,
        ),
      ),
      sample,
    );
    expect(diagnosticsOf(linked)).toEqual([]);
    expect(assetsOf(linked)).toEqual([SAFE, "GameObject:Café@Data/Win.xml:4 project [static]"]);
    expect(linked.defines.get("quote")?.map((d) => d.value)).toEqual(["\u201C\u20AC\u201D"]);
  });

  test("a UTF-8 BOM and CRLF line ends: lines and columns as an editor shows them", () => {
    const text =
      `\uFEFF<?xml version="1.0" encoding="utf-8"?>\r\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\r\n<GameObject\r\n  id="Tank"\r\n  CommandSet="Cmds" />\r\n<LogicCommandSet id="Cmds" />\r\n</AssetDeclaration>\r\n`;
    const { linked } = memIndex(project("Bom.xml", text), sample);
    expect(diagnosticsOf(linked)).toEqual([]);
    expect(linked.assets.map((a) => `${a.id} ${a.line}:${a.column} lines ${a.startLine}-${a.endLine}`)).toEqual([
      "Safe 3:21 lines 3-3",
      "Tank 4:7 lines 3-5",
      "Cmds 6:22 lines 6-6",
    ]);
    expect(linked.sites.map((s) => `${s.value} ${s.line}:${s.column} ${s.status}`)).toEqual(["Cmds 5:15 resolved"]);
  });

  test("UTF-16 (little-endian, with BOM) is decoded, not taken for binary", () => {
    const s =
      `\uFEFF<?xml version="1.0" encoding="utf-16"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n<GameObject id="Wide" />\n</AssetDeclaration>\n`;
    const le = new Uint8Array(s.length * 2);
    for (let i = 0; i < s.length; i++) {
      le[2 * i] = s.charCodeAt(i) & 0xff;
      le[2 * i + 1] = s.charCodeAt(i) >> 8;
    }
    const { linked } = memIndex(project("Wide.xml", le), sample);
    expect(diagnosticsOf(linked)).toEqual([]);
    expect(assetsOf(linked)).toEqual([SAFE, "GameObject:Wide@Data/Wide.xml:3 project [static]"]);
  });

  test("an empty .xml", () => {
    const { linked } = memIndex(project("Empty.xml", ""), sample);
    expect(diagnosticsOf(linked)).toEqual([
      "Data/Empty.xml:1:1 error empty-file: the file is empty (an XML file needs a root element)",
    ]);
    expect(assetsOf(linked)).toEqual([SAFE]);
  });

  test("a binary file named .xml is registered, not parsed", () => {
    const { linked } = memIndex(
      project("Texture.xml", new Uint8Array([0x44, 0x44, 0x53, 0x20, 0x7c, 0, 0, 0, 7, 0x10, 0, 0])),
      sample,
    );
    expect(diagnosticsOf(linked)).toEqual([
      "Data/Texture.xml:1:1 error not-xml: the file is named .xml but holds binary data (it does not start with '<' or contains NUL bytes); it was not parsed",
    ]);
    expect(assetsOf(linked)).toEqual([SAFE]);
    expect(linked.file("/mods/Test Mod/Data/Texture.xml")?.kind).toBe("binary");
  });

  test("a .str with an unterminated string: reported on its line, the other entries kept", () => {
    const { linked } = memIndex(
      {
        "Data/Mod.xml": doc(`<GameObject id="Tank"><DisplayName>Name:Tank</DisplayName></GameObject>`),
        "Misc/Data/Mod.str": `Name:Tank\n"Tank\nEND\n\nName:Jeep\n"Jeep"\nEND\n`,
      },
      sample,
    );
    expect(diagnosticsOf(linked)).toEqual([
      "Misc/Data/Mod.str:2:1 warning string-table: unterminated string (a string must close on its own line)",
    ]);
    expect(linked.strings.map((s) => `${s.key}=${s.text}@${s.line}`)).toEqual(["Name:Tank=Tank@1", "Name:Jeep=Jeep@5"]);
    expect(assetsOf(linked)).toEqual(["GameObject:Tank@Data/Mod.xml:3 project [static]"]);
  });
});

describe("an unreadable file (real driver)", () => {
  function tempProject() {
    const dir = TMP.make("ra3-bad-input-");
    mkdirSync(join(dir, "Data"));
    writeFileSync(join(dir, "Data", "Mod.xml"), doc(includes(["all", "Locked.xml"], ["all", "Other.xml"])));
    writeFileSync(join(dir, "Data", "Locked.xml"), doc(`<GameObject id="Locked" />`));
    writeFileSync(join(dir, "Data", "Other.xml"), doc(`<WeaponTemplate id="Safe" />`));
    const cfg = resolveConfig({
      project: dir,
      sdk: "",
      schema: null,
      home: TMP.make("ra3-bad-input-home-"),
    });
    if ("envError" in cfg) throw new Error(cfg.envError);
    return { dir, ws: new Workspace(cfg) };
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

  // Root reads a mode-000 file anyway, so this variant only runs as an ordinary user.
  test.skipIf(isRoot)("a file without read permission: listed with EACCES, the rest indexed", async () => {
    const { dir, ws } = tempProject();
    const locked = join(dir, "Data", "Locked.xml");
    chmodSync(locked, 0o000);
    try {
      const report = await ws.build();
      expect(report.unreadable.map((u) => u.error)).toEqual(["EACCES"]);
      expect(ws.linked!.assets.map((a) => a.id)).toEqual(["Safe"]);
    } finally {
      chmodSync(locked, 0o644);
    }
  });

  test("a file that vanishes between the scan and the read: the rest is indexed, nothing throws", async () => {
    const { dir, ws } = tempProject();
    const report = await ws.build((phase) => {
      if (phase === "scan") rmSync(join(dir, "Data", "Locked.xml"), { force: true });
    });
    expect(report.unreadable.map((u) => u.error)).toEqual(["ENOENT"]);
    expect(ws.linked!.assets.map((a) => a.id)).toEqual(["Safe"]);
    expect(ws.linked!.file(join(dir, "Data", "Locked.xml"))?.kind).toBe("missing");
  });

  // Paths are shown in their real casing (case-insensitive keys are only for lookup).
  test("the build report names the unreadable file by its real path", async () => {
    const { dir, ws } = tempProject();
    const report = await ws.build((phase) => {
      if (phase === "scan") rmSync(join(dir, "Data", "Locked.xml"), { force: true });
    });
    expect(report.unreadable).toEqual([{ path: join(dir, "Data", "Locked.xml"), error: "ENOENT" }]);
  });

  test("a file that exists but cannot be read is an index diagnostic naming the file and the system error", async () => {
    const { dir, ws } = tempProject();
    const locked = join(dir, "Data", "Locked.xml");
    // Root reads any file whatever its mode, so make the read fail another way: a folder where the file was.
    const report = await ws.build((phase) => {
      if (phase === "scan") {
        rmSync(locked, { force: true });
        mkdirSync(locked);
      }
    });
    expect(report.unreadable).toEqual([{ path: locked, error: "EISDIR" }]);
    expect(ws.linked!.assets.map((a) => a.id)).toEqual(["Safe"]);
    expect(
      ws.linked!.diagnostics.filter((d) => d.file === locked).map((
        d,
      ) => [d.code, d.severity, d.message, d.line, d.column]),
    ).toEqual([
      ["unreadable-file", "error", "could not read the file: EISDIR; check the file", 1, 1],
    ]);
  });
});
