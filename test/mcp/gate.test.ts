// The wire gate: requests whose params have the wrong JSON type get one -32602 sentence (not the SDK's
// multi-line validation dump), and any error the SDK still words as a dump leaves as one line.
import { describe, expect, test } from "bun:test";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { condenseError, screenRequest } from "../../src/mcp/gate.ts";

const call = (params: unknown) => ({ jsonrpc: "2.0", id: 7, method: "tools/call", params }) as JSONRPCMessage;

describe("screenRequest", () => {
  test.each([
    [[], "a list"],
    [null, "null"],
    ["id=Foo", "a string"],
    [42, "a number"],
    [true, "a boolean"],
  ])("tools/call arguments %j: -32602, one line", (args, kind) => {
    expect(screenRequest(call({ name: "find_asset", arguments: args }))).toEqual({
      id: 7,
      code: -32602,
      message:
        `Invalid params: the arguments of find_asset must be an object of named arguments (pass {} for none), got ${kind}`,
    });
  });

  test("a tools/call without a name, with a number as name", () => {
    expect(screenRequest(call({ arguments: {} }))?.message).toBe(
      "Invalid params: tools/call needs the tool's name as a string, got undefined",
    );
    expect(screenRequest(call({ name: 3 }))?.message).toBe(
      "Invalid params: tools/call needs the tool's name as a string, got a number",
    );
  });

  test("well-formed requests, absent arguments and notifications pass", () => {
    expect(screenRequest(call({ name: "get_status" }))).toBeNull();
    expect(screenRequest(call({ name: "find_asset", arguments: { id: "X" } }))).toBeNull();
    expect(screenRequest({ jsonrpc: "2.0", method: "notifications/initialized" } as JSONRPCMessage)).toBeNull();
    expect(screenRequest({ jsonrpc: "2.0", id: 1, method: "tools/list" } as JSONRPCMessage)).toBeNull();
  });
});

describe("condenseError", () => {
  test("an SDK validation dump becomes its first issue on one line", () => {
    const dump = `Invalid completion/complete request: ${
      JSON.stringify(
        [
          { code: "invalid_type", path: ["params", "ref", "type"], message: "Invalid input" },
          { code: "invalid_type", path: ["params", "argument"], message: "Required" },
        ],
        null,
        2,
      )
    }`;
    const m = { jsonrpc: "2.0", id: 3, error: { code: -32602, message: dump } } as JSONRPCMessage;
    expect(condenseError(m)).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: {
        code: -32602,
        message: "Invalid completion/complete request: params.ref.type: Invalid input (and 1 more)",
      },
    });
  });

  test("other line breaks are joined; a one-line error is the same object", () => {
    const m = { jsonrpc: "2.0", id: 3, error: { code: -32603, message: "boom\n  at x\n  at y" } } as JSONRPCMessage;
    expect((condenseError(m) as { error: { message: string } }).error.message).toBe("boom at x at y");
    const plain = { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "Tool x not found" } } as JSONRPCMessage;
    expect(condenseError(plain)).toBe(plain);
  });
});
