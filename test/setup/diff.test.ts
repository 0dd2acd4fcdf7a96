import { describe, expect, test } from "bun:test";
import { unifiedDiff } from "../../src/setup/diff.ts";

const labels = { oldLabel: "a.json", newLabel: "a.json" };
const lines = (n: number, from = 1): string => Array.from({ length: n }, (_, i) => `line ${i + from}\n`).join("");

describe("unifiedDiff", () => {
  test("equal texts give an empty diff", () => {
    expect(unifiedDiff("a\nb\n", "a\nb\n", labels)).toBe("");
    expect(unifiedDiff(null, "", labels)).toBe("");
  });

  test("one changed line with context", () => {
    expect(unifiedDiff("a\nb\nc\n", "a\nB\nc\n", labels)).toBe(
      "--- a.json\n+++ a.json\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
    );
  });

  test("a new file", () => {
    expect(unifiedDiff(null, "x\ny\n", { oldLabel: "/dev/null", newLabel: "n.toml" })).toBe(
      "--- /dev/null\n+++ n.toml\n@@ -0,0 +1,2 @@\n+x\n+y\n",
    );
  });

  test("a deleted file", () => {
    expect(unifiedDiff("x\n", null, { oldLabel: "n.toml", newLabel: "/dev/null" })).toBe(
      "--- n.toml\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n",
    );
  });

  test("distant changes make separate hunks with three lines of context", () => {
    const before = lines(20);
    const after = before.replace("line 2\n", "line two\n").replace("line 18\n", "line eighteen\n");
    expect(unifiedDiff(before, after, labels)).toBe(
      "--- a.json\n+++ a.json\n" +
        "@@ -1,5 +1,5 @@\n line 1\n-line 2\n+line two\n line 3\n line 4\n line 5\n" +
        "@@ -15,6 +15,6 @@\n line 15\n line 16\n line 17\n-line 18\n+line eighteen\n line 19\n line 20\n",
    );
  });

  test("changes up to six lines apart share one hunk", () => {
    const before = lines(12);
    const after = before.replace("line 3\n", "x\n").replace("line 10\n", "y\n");
    const diff = unifiedDiff(before, after, labels);
    expect(diff.match(/^@@/gm)).toHaveLength(1);
    expect(diff.split("\n")[2]).toBe("@@ -1,12 +1,12 @@");
  });

  test("a missing final newline is marked", () => {
    expect(unifiedDiff("a\nb", "a\nb\n", labels)).toBe(
      "--- a.json\n+++ a.json\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
    );
  });

  test("CR of CRLF lines and the BOM are not shown", () => {
    expect(unifiedDiff("\uFEFFa\r\nb\r\n", "\uFEFFa\r\nc\r\n", labels)).toBe(
      "--- a.json\n+++ a.json\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n",
    );
  });

  test("insertions in the middle are minimal", () => {
    expect(unifiedDiff("a\nb\nc\nd\n", "a\nb\nX\nY\nc\nd\n", labels)).toBe(
      "--- a.json\n+++ a.json\n@@ -1,4 +1,6 @@\n a\n b\n+X\n+Y\n c\n d\n",
    );
  });

  test("a very large changed block is still a correct diff", () => {
    const before = lines(3000);
    const after = lines(3000, 5000);
    const diff = unifiedDiff(before, after, labels);
    const body = diff.split("\n").slice(3, -1);
    expect(body.filter((l) => l.startsWith("-")).length).toBe(3000);
    expect(body.filter((l) => l.startsWith("+")).length).toBe(3000);
    expect(diff.split("\n")[2]).toBe("@@ -1,3000 +1,3000 @@");
  });
});
