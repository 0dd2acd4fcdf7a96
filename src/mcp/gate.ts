/**
 * What the wire does before and after the SDK: requests whose parameters have the wrong JSON type are
 * refused here with one `-32602` sentence (the SDK would answer them with a multi-line validation dump,
 * which a client shows its model verbatim), and any error the SDK still words as a dump is condensed to
 * one line on its way out. Only JSON-RPC errors are produced here, never results: errors have the same
 * shape in both protocol eras, results do not.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/server";

const INVALID_PARAMS = -32602;

export interface Refusal {
  readonly id: string | number;
  readonly code: number;
  readonly message: string;
}

/** "a list", "null", "a string" …: what a model sent instead, in words. */
function jsonKind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return "a string";
  if (typeof v === "number") return "a number";
  if (typeof v === "boolean") return "a boolean";
  return typeof v;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The refusal for a `tools/call` whose `name` or `arguments` has the wrong JSON type, or null when the
 * SDK may have the request. (A request whose `params` is not an object at all is not JSON-RPC as MCP
 * defines it: the transport answers it `-32600` before it gets here.)
 * @example screenRequest({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_status", arguments: [] } })?.message
 * // 'Invalid params: the arguments of get_status must be an object of named arguments (pass {} for none), got a list'
 */
export function screenRequest(message: JSONRPCMessage): Refusal | null {
  if (!("method" in message) || !("id" in message)) return null;
  const { id, method } = message;
  if (method !== "tools/call") return null;
  const refuse = (text: string): Refusal => ({ id, code: INVALID_PARAMS, message: `Invalid params: ${text}` });
  const p = (message.params ?? {}) as Record<string, unknown>;
  if (typeof p.name !== "string") {
    return refuse(`tools/call needs the tool's name as a string, got ${jsonKind(p.name)}`);
  }
  if (p.arguments !== undefined && !isPlainObject(p.arguments)) {
    return refuse(
      `the arguments of ${p.name.slice(0, 64)} must be an object of named arguments (pass {} for none), got ${
        jsonKind(p.arguments)
      }`,
    );
  }
  return null;
}

interface ZodIssueLike {
  readonly path?: readonly unknown[];
  readonly message?: string;
}

/** One line for an SDK error message that embeds a JSON list of validation issues (or any line breaks). */
function oneLine(message: string): string {
  if (!message.includes("\n")) return message;
  const at = message.indexOf(": [");
  if (at > 0) {
    try {
      const issues = JSON.parse(message.slice(at + 2)) as ZodIssueLike[];
      const first = issues[0];
      if (Array.isArray(issues) && first && typeof first.message === "string") {
        const path = (first.path ?? []).map(String).join(".");
        const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
        return `${message.slice(0, at)}: ${path ? `${path}: ` : ""}${first.message}${more}`;
      }
    } catch {
      // not a JSON dump: fall through to joining the lines
    }
  }
  const joined = message.replace(/\s*\n\s*/g, " ").trim();
  return joined.length > 300 ? `${joined.slice(0, 297)}...` : joined;
}

/**
 * `message` with a multi-line error message condensed to one line (first validation issue, or the
 * lines joined); any other message unchanged (the same object).
 */
export function condenseError(message: JSONRPCMessage): JSONRPCMessage {
  if (!("error" in message) || typeof message.error?.message !== "string") return message;
  const text = oneLine(message.error.message);
  return text === message.error.message ? message : { ...message, error: { ...message.error, message: text } };
}
