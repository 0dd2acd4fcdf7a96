// The lines the text rendering adds about the index's state and about shortened answers.
import { describe, expect, test } from "bun:test";
import type { IndexEnvelope } from "../../src/query/envelope.ts";
import { boundNote, indexNote } from "../../src/mcp/render.ts";

const ready: IndexEnvelope = {
  projectDir: "/m",
  sdkDir: null,
  game: "ra3",
  state: "ready",
  buildId: 2,
  builtAt: "2026-01-01T00:00:00.000Z",
  complete: true,
  stale: false,
  counts: { files: 1, assets: 1, sdkAssets: 0, references: 0, defines: 0, diagnostics: 0 },
};

describe("indexNote", () => {
  test("nothing to say when ready and fresh", () => {
    expect([indexNote(ready), indexNote(null)]).toEqual(["", ""]);
  });
  test("rebuild running, stale, art scan running, last update failed", () => {
    expect(indexNote({ ...ready, state: "building", complete: false })).toBe(
      "(index: a rebuild is running; this answer comes from the previous index)",
    );
    expect(indexNote({ ...ready, state: "stale", stale: true })).toBe(
      '(index stale: files may have changed since it was built; pass consistency "strict" for an answer that reflects them)',
    );
    expect(indexNote({ ...ready, state: "ready_xml", complete: false })).toBe(
      "(index still scanning .w3x art: art assets and their references may be missing for now)",
    );
    expect(indexNote({ ...ready, state: "error", stale: true })).toBe(
      "(index: the last build or update failed; this answer comes from the previous index, built 2026-01-01T00:00:00.000Z)",
    );
  });
});

describe("boundNote", () => {
  test("names what was left out", () => {
    expect(boundNote({})).toBe("");
    expect(boundNote({ truncated: true, omitted: { edges: 12, "asset.list": 3 } })).toBe(
      "(answer shortened to stay under the size limit: 12 edges left out, 3 asset.list left out; narrow the question)",
    );
    expect(boundNote({ truncated: true, shortened: 2, nextCursor: "x" } as never)).toBe(
      "(answer shortened to stay under the size limit: 2 long values cut short (…); narrow the question or follow nextCursor)",
    );
  });
});
