/**
 * The tool samples in `docs/mcp-tools.md` are real: every fenced block whose first line is
 * `→ TOOL {arguments}` is that call's text answer (without its index line), and every block starting
 * `← TOOL {arguments}` is its `structuredContent.result` (or, for an error, its `error`), on the
 * sample mod, shown as `<sample>`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bodyOf, connect, type Harness, type Json, SAMPLE } from "../mcp/harness.ts";

const DOC = readFileSync(join(import.meta.dirname, "..", "..", "docs", "mcp-tools.md"), "utf8");

interface Sample {
  readonly kind: "text" | "json";
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly body: string;
}

function samples(markdown: string): Sample[] {
  const out: Sample[] = [];
  for (const m of markdown.matchAll(/^(`{3,4})\n([→←]) (\S+) (\{.*\})\n([\s\S]*?)\n\1$/gm)) {
    out.push({ kind: m[2] === "→" ? "text" : "json", tool: m[3], args: JSON.parse(m[4]), body: m[5] });
  }
  return out;
}

const ALL = samples(DOC);
let h: Harness;
beforeAll(async () => {
  h = await connect(SAMPLE);
  await h.call("get_status", { consistency: "strict" });
});
afterAll(async () => {
  await h.close();
});

test("the doc has a text and a JSON sample for 14 tools (two for list_files) and one error", () => {
  expect(ALL.length).toBe(32);
  expect(ALL.filter((x) => x.tool === "list_files").length).toBe(4);
});

describe("docs/mcp-tools.md samples", () => {
  test.each(ALL.map((s) => [`${s.kind === "text" ? "→" : "←"} ${s.tool} ${JSON.stringify(s.args)}`, s]))(
    "%s",
    async (_name, s) => {
      const r = await h.call(s.tool, s.args);
      const shown = (v: string) => v.replaceAll(SAMPLE, "<sample>");
      const time = (v: string) => v.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<time>");
      if (s.kind === "text") expect(time(shown(bodyOf(r)))).toBe(time(s.body));
      else {
        const sc = r.structuredContent as Json;
        expect(JSON.parse(shown(JSON.stringify(r.isError ? sc.error : sc.result)))).toEqual(JSON.parse(s.body));
      }
    },
  );
});
