/**
 * Every tool's `outputSchema`: the envelope `{ index, result?, error? }` every answer shares, exact for
 * `index` and `error`, and `result` an open object whose shape a one-line summary names (the shapes
 * are built in `query/answers.ts` and documented in docs/mcp-tools.md). No client shows an output
 * schema to its model, and spelling out all fifteen answers cost 52 KB of a 76 KB `tools/list`
 * (`scripts/answer-size.ts`): the envelope is what a client needs to tell a real answer from "not
 * indexed yet". The compile-time checks at the bottom fail when an envelope type and its schema drift.
 */
import * as z from "zod";
import type { IndexEnvelope, ShortEnvelope } from "../query/envelope.ts";

const str = z.string();
const nstr = z.string().nullable();
// Plain numbers: zod's int() adds ±2^53 bounds to every field of the advertised schema.
const int = z.number();

const STATES = ["no_index", "building", "ready_xml", "ready", "stale", "error"] as const;

const shortFields = {
  state: z.enum(STATES),
  complete: z.boolean().describe(
    "False until every file is indexed: while only the files the include graph reaches are (reachedOnly), and until the .w3x art scan has finished.",
  ),
  reachedOnly: z
    .literal(true)
    .optional()
    .describe(
      "Only while the index holds just the files the entry points' include graph reaches (the files nothing includes are still being read): tools that need every file wait for them.",
    ),
  stale: z.boolean().describe("Files changed since the index was built."),
  buildId: int,
  builtAt: nstr,
  projectDir: str,
};

// Loose (extra fields allowed): a fact added to the envelope later never fails a client's validation.
const ShortEnvelopeSchema = z.looseObject(shortFields).describe("The index that answered.");

const IndexEnvelopeSchema = z
  .looseObject({
    ...shortFields,
    sdkDir: nstr.describe("The SDK folder, or null in project-only mode (no vanilla layer)."),
    game: z.enum(["ra3", "tw", "kw"]).nullable(),
    counts: z.object({ files: int, assets: int, sdkAssets: int, references: int, defines: int, diagnostics: int }),
  })
  .describe("The index that answered, with the SDK, game and counts.");

const ErrorSchema = z
  .looseObject({
    code: z.enum([
      "not_found",
      "ambiguous",
      "bad_argument",
      "building",
      "outside_project",
      "no_project",
      "no_sdk",
      "no_index",
      "timeout",
      "internal",
      "too_large",
      "cancelled",
    ]),
    message: str,
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .describe("Only on error results (isError: true), instead of result.");

export interface AnswerSchemaOptions {
  /** The full envelope (get_status). */
  readonly fullIndex?: boolean;
  /** `index` may be null: no project is involved (list_projects, get_usage_guide on several mods). */
  readonly indexNullable?: boolean;
}

/**
 * The output schema of a tool: the envelope, with `result` described by `shape` (a one-line summary;
 * places are "path:line", assets "Type:Id", usual values left out).
 * @example answerSchema("{id, definitions: [{type, at, endLine, …}]}").shape.result.isOptional() // true
 */
export function answerSchema(shape: string, options: AnswerSchemaOptions = {}) {
  const index = options.fullIndex ? IndexEnvelopeSchema : ShortEnvelopeSchema;
  return z.looseObject({
    index: options.indexNullable ? index.nullable() : index,
    result: z.looseObject({}).optional().describe(shape),
    error: ErrorSchema.optional(),
  });
}

// ---- compile-time checks: the envelope types must satisfy their schemas ----

type Satisfies<T extends U, U> = T;
// Loose objects infer an index signature, which plain interfaces do not have: drop it for the check.
type Known<T> = { readonly [K in keyof T as string extends K ? never : K]: T[K] };
type Out<S extends z.ZodType> = Known<z.infer<S>>;

export type SchemaChecks = [
  Satisfies<ShortEnvelope, Out<typeof ShortEnvelopeSchema>>,
  Satisfies<IndexEnvelope, Out<typeof IndexEnvelopeSchema>>,
];
