/**
 * Tool argument schemas: every field described and bounded, every validation failure a sentence that
 * names the field and what it accepts (the handlers return these as `isError` results, see
 * {@link argumentProblem}), and unknown arguments refused (a misspelled `targetType` silently ignored
 * would give a misleading answer).
 */
import * as z from "zod";

/** The largest page a list tool returns, whatever `limit` asks for (the size bound may cut further). */
export const MCP_HARD_LIMIT = 200;
/** `limit` values above this are refused outright rather than lowered. */
const MAX_LIMIT_ARGUMENT = 10_000;

type Issue = {
  code: string;
  input?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  origin?: string;
  values?: unknown[];
  keys?: string[];
};

function describeInput(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? v.slice(0, 37) + "..." : v);
  if (typeof v === "object") return "an object";
  return String(v);
}

/** A zod error function producing "name must be …, got …" sentences. */
function fieldError(name: string, expect: string) {
  return (iss: Issue): string => {
    if (iss.input === undefined && iss.code === "invalid_type") return `${name} is required: ${expect}`;
    switch (iss.code) {
      case "too_small":
        if (iss.origin === "string") return `${name} is empty: ${expect}`;
        if (iss.origin === "array") return `${name} needs at least ${iss.minimum} item(s)`;
        return `${name} must be ${expect}, got ${describeInput(iss.input)}`;
      case "too_big":
        if (iss.origin === "string") return `${name} is longer than ${iss.maximum} characters`;
        if (iss.origin === "array") return `${name} has more than ${iss.maximum} items`;
        return `${name} must be ${expect}, got ${describeInput(iss.input)}`;
      default:
        return `${name} must be ${expect}, got ${describeInput(iss.input)}`;
    }
  };
}

/** A required non-empty string of at most `max` characters. */
export function text(name: string, what: string, max: number, description: string) {
  return z.string({ error: fieldError(name, what) }).min(1).max(max).describe(description);
}

/** An optional string of at most `max` characters. */
export function optionalText(name: string, what: string, max: number, description: string) {
  return text(name, what, max, description).optional();
}

/** An optional choice among `values`. */
export function optionalChoice(name: string, values: readonly string[], description: string) {
  return z.enum(values as [string, ...string[]], { error: fieldError(name, `one of ${values.join(", ")}`) })
    .optional()
    .describe(description);
}

/**
 * Without `when`, zod also runs the item-count check on a string given instead of a list and reports a
 * second, confusing issue. (`when` is in zod's runtime check params; Deno's view of the types lacks it.)
 */
const ONLY_LISTS = { when: (p: { value: unknown }) => Array.isArray(p.value) } as unknown as { error?: string };

/** An optional list of distinct choices among `values`. */
export function choiceList(name: string, values: readonly string[], description: string) {
  return z
    .array(
      z.enum(values as [string, ...string[]], {
        error: fieldError(`each item of ${name}`, `one of ${values.join(", ")}`),
      }),
      {
        error: fieldError(name, `a list of ${values.join(", ")}`),
      },
    )
    .max(values.length, ONLY_LISTS)
    .optional()
    .describe(description);
}

/** An optional true/false. */
export function flag(name: string, description: string) {
  return z.boolean({ error: fieldError(name, "true or false") }).optional().describe(description);
}

/** An optional whole number in [min, max]. */
export function count(name: string, min: number, max: number, description: string) {
  return z
    .number({ error: fieldError(name, `a whole number from ${min} to ${max}`) })
    .int()
    .min(min)
    .max(max)
    .optional()
    .describe(description);
}

/** An optional list of at most `maxItems` non-empty strings of at most `maxLength` characters. */
export function textList(name: string, what: string, maxItems: number, maxLength: number, description: string) {
  return z
    .array(z.string({ error: fieldError(`each item of ${name}`, what) }).min(1).max(maxLength), {
      error: fieldError(name, `a list of ${what}`),
    })
    .max(maxItems, ONLY_LISTS)
    .optional()
    .describe(description);
}

const COMMON = {
  project: optionalText(
    "project",
    "a project name or folder from list_projects",
    1024,
    "Which project to answer for: a name or folder from list_projects. Needed only when the server serves several mods.",
  ),
  consistency: z
    .enum(["eventual", "strict"], { error: fieldError("consistency", '"eventual" or "strict"') })
    .optional()
    .describe(
      '"eventual" (default) answers at once from the current index; "strict" first re-checks the files on disk and waits (up to 30 s) for a running build, so the answer reflects edits made a moment ago.',
    ),
};

export const LIMIT = count(
  "limit",
  1,
  MAX_LIMIT_ARGUMENT,
  `Items per page (default 50; at most ${MCP_HARD_LIMIT} are returned, fewer when the answer would be too large).`,
);
export const CURSOR = optionalText(
  "cursor",
  "the nextCursor of a previous answer",
  64,
  "The nextCursor of a previous answer, to get the next page. Opaque: never build one.",
);
export const ID = text(
  "id",
  'the asset id, e.g. "AlliedAthenaCannon"',
  256,
  'The asset id (case-insensitive). For a "Type:Id" value pass the part after the last colon, and the type as type.',
);
export const TYPE = optionalText(
  "type",
  'an asset type such as "GameObject" or "WeaponTemplate"',
  128,
  "The asset type (XML element name), e.g. GameObject, WeaponTemplate, W3DContainer. Pass it whenever you know it: one id may name assets of several types.",
);

/**
 * The object schema of a tool's arguments: its own fields plus {@link COMMON}, unknown keys refused.
 */
export function argumentsOf<S extends z.ZodRawShape>(tool: string, shape: S) {
  const all = { ...shape, ...COMMON };
  const names = Object.keys(all);
  return z.strictObject(all, {
    error: (iss: Issue) =>
      iss.code === "unrecognized_keys"
        ? `unknown argument${(iss.keys?.length ?? 0) > 1 ? "s" : ""} ${
          (iss.keys ?? []).map((k) => `"${k}"`).join(", ")
        }; ${tool} takes ${names.join(", ")}`
        : iss.code === "invalid_type"
        ? `the arguments of ${tool} must be an object`
        : undefined,
  });
}

/**
 * One line for a failed argument check: each problem's sentence (the list item it concerns, when one
 * does), joined with "; ".
 * @example argumentProblem(argumentsOf("find_asset", { id: ID }).safeParse({}).error!)
 * // 'id is required: the asset id, e.g. "AlliedAthenaCannon"'
 */
export function argumentProblem(error: z.ZodError): string {
  const sentences = error.issues.map((iss) => {
    const index = iss.path.find((p): p is number => typeof p === "number");
    return index === undefined ? iss.message : `${iss.message} (item ${index + 1})`;
  });
  return [...new Set(sentences)].join("; ");
}
