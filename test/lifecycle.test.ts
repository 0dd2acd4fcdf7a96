import { describe, expect, test } from "bun:test";
import {
  INDEX_STATES,
  INITIAL_LIFECYCLE,
  isStale,
  type Lifecycle,
  LIFECYCLE_EVENTS,
  type LifecycleEvent,
  nextState,
} from "../src/lifecycle.ts";

const L = (state: Lifecycle["state"], hasIndex: boolean, complete: boolean, dirty = false): Lifecycle => ({
  state,
  hasIndex,
  complete,
  dirty,
});

// One representative per state (the ones reachable from the initial state), plus the variants that matter.
const states: Record<string, Lifecycle> = {
  no_index: INITIAL_LIFECYCLE,
  building: L("building", false, false),
  ready_xml: L("ready_xml", true, false),
  ready: L("ready", true, true),
  stale: L("stale", true, true),
  error: L("error", true, true),
};

// Expected result of every state × event pair.
const expected: Record<string, Record<LifecycleEvent, Lifecycle>> = {
  no_index: {
    build_started: L("building", false, false),
    xml_done: INITIAL_LIFECYCLE,
    build_done: INITIAL_LIFECYCLE,
    build_failed: INITIAL_LIFECYCLE,
    files_changed: INITIAL_LIFECYCLE,
    update_applied: INITIAL_LIFECYCLE,
  },
  building: {
    build_started: L("building", false, false),
    xml_done: L("ready_xml", true, false),
    build_done: L("ready", true, true),
    build_failed: L("error", false, false),
    files_changed: L("building", false, false, true),
    update_applied: L("building", false, false),
  },
  ready_xml: {
    build_started: L("building", true, false),
    xml_done: L("ready_xml", true, false),
    build_done: L("ready", true, true),
    build_failed: L("error", true, false),
    files_changed: L("ready_xml", true, false, true),
    update_applied: L("ready_xml", true, false),
  },
  ready: {
    build_started: L("building", true, true),
    xml_done: L("ready", true, true),
    build_done: L("ready", true, true),
    build_failed: L("ready", true, true),
    files_changed: L("stale", true, true),
    update_applied: L("ready", true, true),
  },
  stale: {
    build_started: L("building", true, true),
    xml_done: L("stale", true, true),
    build_done: L("stale", true, true),
    build_failed: L("stale", true, true),
    files_changed: L("stale", true, true),
    update_applied: L("ready", true, true),
  },
  error: {
    build_started: L("building", true, true),
    xml_done: L("error", true, true),
    build_done: L("error", true, true),
    build_failed: L("error", true, true),
    files_changed: L("error", true, true, true),
    update_applied: L("ready", true, true),
  },
};

describe("nextState", () => {
  test("the table covers every state and event", () => {
    expect(Object.keys(states).sort()).toEqual([...INDEX_STATES].sort());
    for (const s of INDEX_STATES) expect(Object.keys(expected[s]).sort()).toEqual([...LIFECYCLE_EVENTS].sort());
  });
  for (const s of INDEX_STATES) {
    for (const e of LIFECYCLE_EVENTS) {
      test(`${s} + ${e} → ${expected[s][e].state}${expected[s][e].dirty ? " (dirty)" : ""}`, () => {
        expect(nextState(states[s], e)).toEqual(expected[s][e]);
      });
    }
  }
  test("a change during a build makes the finished build stale", () => {
    let s = nextState(INITIAL_LIFECYCLE, "build_started");
    s = nextState(s, "xml_done");
    s = nextState(s, "files_changed");
    s = nextState(s, "build_done");
    expect(s).toEqual(L("stale", true, true));
    expect(isStale(s)).toBe(true);
    expect(nextState(s, "update_applied")).toEqual(L("ready", true, true));
  });
  test("a failed first build has no index to serve; a failed rebuild keeps the old one, flagged", () => {
    const first = nextState(nextState(INITIAL_LIFECYCLE, "build_started"), "build_failed");
    expect(first).toEqual(L("error", false, false));
    expect(isStale(first)).toBe(false);
    const rebuilt = nextState(nextState(states.ready, "build_started"), "build_failed");
    expect(rebuilt).toEqual(L("error", true, true));
    expect(isStale(rebuilt)).toBe(true);
  });
  test("a rebuild's XML phase keeps the index complete (the previous art records are in it); a cancel then recovers to ready", () => {
    let s = nextState(states.ready, "build_started");
    s = nextState(s, "xml_done");
    expect(s).toEqual(L("ready_xml", true, true));
    s = nextState(s, "build_failed");
    expect(s).toEqual(L("error", true, true));
    expect(nextState(s, "update_applied")).toEqual(L("ready", true, true));
    // A first build's XML phase is not complete, and a failure there recovers to ready_xml.
    const first = nextState(nextState(nextState(INITIAL_LIFECYCLE, "build_started"), "xml_done"), "build_failed");
    expect(nextState(first, "update_applied")).toEqual(L("ready_xml", true, false));
  });
  test("update_applied on an error state without an index changes nothing", () => {
    expect(nextState(L("error", false, false), "update_applied")).toEqual(L("error", false, false));
  });
});
