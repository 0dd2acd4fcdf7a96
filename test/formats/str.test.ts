import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { indexStrings, parseStringTable, searchStrings, type StrEntry } from "../../src/formats/str.ts";
import { CORPORA } from "../../scripts/corpora.ts";

describe("parseStringTable: constructs", () => {
  test("a plain entry", () => {
    expect(parseStringTable('Name:Foo\n"Foo Tank"\nEND\n')).toEqual({
      entries: [{ key: "Name:Foo", text: "Foo Tank", line: 1 }],
      diagnostics: [],
    });
  });

  test("strings on several lines are concatenated as written", () => {
    const t = parseStringTable(
      ["Desc:Foo", '  "First line, "', '  "second part."', '  "Two" "on one line"', "END"].join("\n"),
    );
    expect(t).toEqual({
      entries: [{ key: "Desc:Foo", text: "First line, second part.Twoon one line", line: 1 }],
      diagnostics: [],
    });
  });

  test('escapes: \\n, \\t, \\" and \\\\ are decoded; other backslashes are kept', () => {
    const t = parseStringTable(String.raw`Desc:Esc
"a\nb\tc \"q\" back\\slash \x %s"
END`);
    expect(t.entries).toEqual([{ key: "Desc:Esc", text: 'a\nb\tc "q" back\\slash \\x %s', line: 1 }]);
    expect(t.diagnostics).toEqual([]);
  });

  test("comments: whole lines, after a label, a string and END; // inside quotes is text", () => {
    const t = parseStringTable(
      [
        "// header comment",
        "   // indented comment",
        "Credits:Home // the homepage",
        "  // between",
        '  "http://www.moddb.com/mods/x" // trailing',
        "End // done",
      ].join("\n"),
    );
    expect(t).toEqual({
      entries: [{ key: "Credits:Home", text: "http://www.moddb.com/mods/x", line: 3 }],
      diagnostics: [],
    });
  });

  test("blank lines, indentation, CRLF, lone CR and a BOM", () => {
    const t = parseStringTable('\uFEFF\r\n  Name:A\r\n\t"Alpha"\r\n  end\r\n\r\nName:B\r"Beta"\rEND');
    expect(t).toEqual({
      entries: [
        { key: "Name:A", text: "Alpha", line: 2 },
        { key: "Name:B", text: "Beta", line: 6 },
      ],
      diagnostics: [],
    });
  });

  test("END in any case, and on the line of the string or label", () => {
    const t = parseStringTable(['Name:A "Alpha" END', "Name:B", '"Beta" end', "Name:C", '"Gamma"', "eNd"].join("\n"));
    expect(t.entries).toEqual([
      { key: "Name:A", text: "Alpha", line: 1 },
      { key: "Name:B", text: "Beta", line: 2 },
      { key: "Name:C", text: "Gamma", line: 4 },
    ]);
    expect(t.diagnostics).toEqual([]);
  });

  test("labels that start with END are labels", () => {
    const t = parseStringTable(["ENDGAME:Win", '"You win"', "END", "End:Credits", '"Fin"', "END"].join("\n"));
    expect(t.entries.map((e) => [e.key, e.text])).toEqual([
      ["ENDGAME:Win", "You win"],
      ["End:Credits", "Fin"],
    ]);
    expect(t.diagnostics).toEqual([]);
  });

  test("an empty string is valid text", () => {
    expect(parseStringTable('Name:Empty\n""\nEND').entries).toEqual([{ key: "Name:Empty", text: "", line: 1 }]);
  });

  test("empty input", () => {
    expect(parseStringTable("")).toEqual({ entries: [], diagnostics: [] });
    expect(parseStringTable("\uFEFF\n// only a comment\n")).toEqual({ entries: [], diagnostics: [] });
  });
});

describe("parseStringTable: problems are diagnostics and parsing continues", () => {
  test("unterminated string: text kept to the end of the line, the next entry parsed", () => {
    const t = parseStringTable(["Name:A", '  "Alpha', "END", "Name:B", '"Beta"', "END"].join("\n"));
    expect(t.entries).toEqual([
      { key: "Name:A", text: "Alpha", line: 1 },
      { key: "Name:B", text: "Beta", line: 4 },
    ]);
    expect(t.diagnostics).toEqual([{
      message: "unterminated string (a string must close on its own line)",
      line: 2,
      column: 3,
    }]);
  });

  test("an escaped quote does not close a string", () => {
    const t = parseStringTable(String.raw`Name:A
"ends with \"
END`);
    expect(t.entries).toEqual([{ key: "Name:A", text: 'ends with "', line: 1 }]);
    expect(t.diagnostics).toEqual([{
      message: "unterminated string (a string must close on its own line)",
      line: 2,
      column: 1,
    }]);
  });

  test("missing END before the next label", () => {
    const t = parseStringTable(["Name:A", '"Alpha"', "  Name:B", '"Beta"', "END"].join("\n"));
    expect(t.entries).toEqual([
      { key: "Name:A", text: "Alpha", line: 1 },
      { key: "Name:B", text: "Beta", line: 3 },
    ]);
    expect(t.diagnostics).toEqual([{ message: "missing END for Name:A (started at line 1)", line: 3, column: 3 }]);
  });

  test("missing END at the end of the file", () => {
    const t = parseStringTable('Name:A\n"Alpha"\n');
    expect(t.entries).toEqual([{ key: "Name:A", text: "Alpha", line: 1 }]);
    expect(t.diagnostics).toEqual([{
      message: "missing END for Name:A (started at line 1) at the end of the file",
      line: 3,
      column: 1,
    }]);
  });

  test("text outside an entry, and END without a label", () => {
    const t = parseStringTable(['"stray"', "END", "Name:A", '"Alpha"', "END", "  END"].join("\n"));
    expect(t.entries).toEqual([{ key: "Name:A", text: "Alpha", line: 3 }]);
    expect(t.diagnostics).toEqual([
      { message: "text outside an entry (expected a label before it)", line: 1, column: 1 },
      { message: "END without a label", line: 2, column: 1 },
      { message: "END without a label", line: 6, column: 3 },
    ]);
  });

  test("unexpected text after a string", () => {
    const t = parseStringTable(["Name:A", '"Alpha" junk here', "END"].join("\n"));
    expect(t.entries).toEqual([{ key: "Name:A", text: "Alpha", line: 1 }]);
    expect(t.diagnostics).toEqual([{
      message: 'unexpected text "junk here" (expected a quoted string, END or a comment)',
      line: 2,
      column: 9,
    }]);
  });

  test("an entry without text is kept with empty text and reported", () => {
    const t = parseStringTable(["Name:A", "END", "Name:B", "Name:C", '"Gamma"', "END"].join("\n"));
    expect(t.entries).toEqual([
      { key: "Name:A", text: "", line: 1 },
      { key: "Name:B", text: "", line: 3 },
      { key: "Name:C", text: "Gamma", line: 4 },
    ]);
    expect(t.diagnostics).toEqual([
      { message: "entry Name:A has no text", line: 1, column: 1 },
      { message: "entry Name:B has no text", line: 3, column: 1 },
      { message: "missing END for Name:B (started at line 3)", line: 4, column: 1 },
    ]);
  });

  test("duplicate labels (case-insensitive) are kept and reported", () => {
    const t = parseStringTable(["Name:A", '"one"', "END", "NAME:a", '"two"', "END"].join("\n"));
    expect(t.entries.map((e) => e.text)).toEqual(["one", "two"]);
    expect(t.diagnostics).toEqual([{
      message: "duplicate label NAME:a (first defined at line 1)",
      line: 4,
      column: 1,
    }]);
    expect(indexStrings(t.entries).get("name:a")?.text).toBe("one");
  });
});

describe("searchStrings", () => {
  const entries: StrEntry[] = [
    { key: "Desc:Tank", text: "A big tank that crushes tanks.", line: 1 },
    { key: "Name:Tank", text: "Tank", line: 5 },
    { key: "Name:TankDrone", text: "Drone", line: 9 },
    { key: "Name:Other", text: "Tankette", line: 13 },
    { key: "Name:Mk2Tankette", text: "Small", line: 17 },
    { key: "Name:Big", text: "TANK", line: 21 },
    { key: "Name:Antitank", text: "Pike", line: 25 },
  ];

  test("ranks exact, then word, then substring; text before key; shorter text first", () => {
    const r = searchStrings(entries, "tank", 10);
    expect(r.total).toBe(7);
    expect(r.matches.map((m) => [m.entry.key, m.kind])).toEqual([
      ["Name:Big", "text-exact"],
      ["Name:Tank", "text-exact"],
      ["Desc:Tank", "key-exact"],
      ["Name:TankDrone", "key-word"],
      ["Name:Other", "text-substring"],
      ["Name:Antitank", "key-substring"],
      ["Name:Mk2Tankette", "key-substring"],
    ]);
  });

  test("is case-insensitive, trims the query, and matches multi-word phrases as words", () => {
    const r = searchStrings(entries, "  BIG TANK ", 10);
    expect(r.matches.map((m) => [m.entry.key, m.kind])).toEqual([["Desc:Tank", "text-word"]]);
  });

  test("limit bounds the matches but not the total", () => {
    const r = searchStrings(entries, "tank", 2);
    expect(r.matches.map((m) => m.entry.key)).toEqual(["Name:Big", "Name:Tank"]);
    expect(r.total).toBe(7);
    expect(searchStrings(entries, "tank", 0)).toEqual({ matches: [], total: 7 });
  });

  test("an empty query or no hit returns nothing", () => {
    expect(searchStrings(entries, "   ", 10)).toEqual({ matches: [], total: 0 });
    expect(searchStrings(entries, "zeppelin", 10)).toEqual({ matches: [], total: 0 });
  });
});

const corpora = CORPORA;
const upheaval = join(corpora, "upheaval", "Misc", "Data", "Mod.str");
const commander = join(corpora, "tw-sdk", "Mods", "Commander", "data", "mod.str");

describe("real string tables (corpus)", () => {
  test.skipIf(!existsSync(upheaval))("Upheaval Mod.str: 132 entries, no diagnostics", () => {
    const t = parseStringTable(readFileSync(upheaval, "utf8"));
    expect(t.entries.length).toBe(132);
    expect(t.diagnostics).toEqual([]);
    const byKey = indexStrings(t.entries);
    expect(byKey.get("name:japanarcherinfantry")).toEqual({
      key: "Name:JapanArcherInfantry",
      text: "Archer Maiden",
      line: 3,
    });
    expect(byKey.get("credits:modhomepage1")?.text).toBe("http://www.moddb.com/mods/red-alert-3-upheaval");
    expect(byKey.get("version:format2")).toEqual({
      key: "Version:Format2",
      text: "Red Alert 3: Upheaval 1.16",
      line: 590,
    });
    expect(byKey.get("rule:randomcrates")?.text).toBe("Disable Super-Weapons");
    const prefixes = new Map<string, number>();
    for (const e of t.entries) prefixes.set(e.key.split(":")[0], (prefixes.get(e.key.split(":")[0]) ?? 0) + 1);
    expect(Object.fromEntries(prefixes)).toEqual({
      Name: 31,
      Desc: 32,
      Type: 14,
      DialogEvent: 11,
      RULE: 1,
      MAP: 28,
      Credits: 13,
      GUI: 1,
      Version: 1,
    });
    const r = searchStrings(t.entries, "archer maiden", 3);
    expect(r.matches.map((m) => [m.entry.key, m.kind])).toEqual([
      ["Name:JapanArcherInfantry", "text-exact"],
      ["DialogEvent:MIIn_ArcherMaiden", "text-substring"], // "*Archer Maidens use …"
    ]);
  });

  test.skipIf(!existsSync(commander))("Commander mod.str: 1 entry", () => {
    expect(parseStringTable(readFileSync(commander, "utf8"))).toEqual({
      entries: [{ key: "Personality:Commander", text: "Commander", line: 1 }],
      diagnostics: [],
    });
  });
});
