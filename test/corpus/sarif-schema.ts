/**
 * SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format) rules for every property ra3 emits,
 * as a zod schema: there is no network here to fetch the official JSON schema, so the rules that matter
 * are written down from the standard. Objects are strict at every level modelled (an unknown key is an
 * error), and the cross-property rules the JSON schema cannot express are checked too:
 * - `version` is exactly "2.1.0" (§3.13.2); `runs` is an array (§3.13.4);
 * - `tool.driver.name` is a non-empty string (§3.19.8);
 * - `results[].message.text` is present (§3.11.8: a message needs `text` or `id`; ra3 uses `text`);
 * - `level` ∈ none | note | warning | error (§3.27.10, also `defaultConfiguration.level`, §3.50.3);
 * - `ruleIndex` ≥ 0 is an index into `tool.driver.rules`, and that rule's `id` equals `ruleId` (§3.27.6);
 * - rule ids are unique within the driver (§3.49.3);
 * - `artifactLocation.uri` is a valid URI reference, and its `uriBaseId` is a key of the run's
 *   `originalUriBaseIds` (§3.4.4, §3.14.14), whose `uri` is an absolute URI ending with "/" (§3.14.14);
 * - `region.startLine` and `startColumn` are integers ≥ 1 (§3.30.5, §3.30.6);
 * - `columnKind` ∈ utf16CodeUnits | unicodeCodePoints (§3.14.18);
 * - a result's `properties` is a property bag (an object; §3.8);
 * - an invocation has `executionSuccessful` (required); its `toolExecutionNotifications` are notifications
 *   with a `message` and an optional `level`, whose `associatedRule` reference names a rule of the driver
 *   by `id` and `index` consistently (the same rule as `ruleIndex` for results).
 */
import { z } from "zod";

const level = z.enum(["none", "note", "warning", "error"]);
const message = z.strictObject({ text: z.string().min(1) });
const positive = z.number().int().min(1);

/** A URI reference (relative or absolute): no raw spaces, backslashes or other characters RFC 3986 forbids. */
const uriReference = z
  .string()
  .min(1)
  .refine((u) => /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/.test(u) && !/%(?![0-9A-Fa-f]{2})/.test(u), {
    message: "not a valid URI reference (RFC 3986)",
  });

const absoluteDirectoryUri = z
  .string()
  .refine((u) => URL.canParse(u) && u.endsWith("/"), {
    message: "originalUriBaseIds URIs must be absolute and end with a slash",
  });

const region = z.strictObject({
  startLine: positive,
  startColumn: positive.optional(),
  endLine: positive.optional(),
  endColumn: positive.optional(),
});

const artifactLocation = z.strictObject({ uri: uriReference, uriBaseId: z.string().min(1).optional() });

const location = z.strictObject({
  physicalLocation: z.strictObject({ artifactLocation, region: region.optional() }),
});

const result = z.strictObject({
  ruleId: z.string().min(1).optional(),
  ruleIndex: z.number().int().min(0).optional(),
  level: level.optional(),
  message,
  locations: z.array(location).optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
});

const notification = z.strictObject({
  level: level.optional(),
  message,
  associatedRule: z.strictObject({ id: z.string().min(1).optional(), index: z.number().int().min(0).optional() })
    .optional(),
});

const invocation = z.strictObject({
  executionSuccessful: z.boolean(),
  toolExecutionNotifications: z.array(notification).optional(),
});

const reportingDescriptor = z.strictObject({
  id: z.string().min(1),
  shortDescription: message.optional(),
  fullDescription: message.optional(),
  defaultConfiguration: z.strictObject({ level: level.optional() }).optional(),
});

const run = z
  .strictObject({
    tool: z.strictObject({
      driver: z.strictObject({
        name: z.string().min(1),
        version: z.string().min(1).optional(),
        informationUri: z.string().optional(),
        rules: z.array(reportingDescriptor).optional(),
      }),
    }),
    originalUriBaseIds: z.record(z.string().min(1), z.strictObject({ uri: absoluteDirectoryUri })).optional(),
    results: z.array(result).optional(),
    invocations: z.array(invocation).optional(),
    columnKind: z.enum(["utf16CodeUnits", "unicodeCodePoints"]).optional(),
  })
  .superRefine((r, ctx) => {
    const rules = r.tool.driver.rules ?? [];
    const ids = new Set<string>();
    rules.forEach((rule, i) => {
      if (ids.has(rule.id)) {
        ctx.addIssue({
          code: "custom",
          path: ["tool", "driver", "rules", i, "id"],
          message: `duplicate rule id ${rule.id}`,
        });
      }
      ids.add(rule.id);
    });
    (r.invocations ?? []).forEach((inv, i) => {
      (inv.toolExecutionNotifications ?? []).forEach((n, j) => {
        const ref = n.associatedRule;
        if (!ref || ref.index === undefined) return;
        if (ref.index >= rules.length || (ref.id !== undefined && rules[ref.index].id !== ref.id)) {
          ctx.addIssue({
            code: "custom",
            path: ["invocations", i, "toolExecutionNotifications", j, "associatedRule"],
            message: `associatedRule ${ref.index} is not the rule ${ref.id ?? "(no id)"}`,
          });
        }
      });
    });
    const bases = r.originalUriBaseIds ?? {};
    (r.results ?? []).forEach((res, i) => {
      if (res.ruleIndex !== undefined) {
        if (res.ruleIndex >= rules.length) {
          ctx.addIssue({
            code: "custom",
            path: ["results", i, "ruleIndex"],
            message: `ruleIndex ${res.ruleIndex} is out of range (${rules.length} rules)`,
          });
        } else if (res.ruleId !== undefined && rules[res.ruleIndex].id !== res.ruleId) {
          ctx.addIssue({
            code: "custom",
            path: ["results", i, "ruleIndex"],
            message: `rule ${res.ruleIndex} is ${rules[res.ruleIndex].id}, not ${res.ruleId}`,
          });
        }
      }
      (res.locations ?? []).forEach((loc, j) => {
        const base = loc.physicalLocation.artifactLocation.uriBaseId;
        if (base !== undefined && !Object.hasOwn(bases, base)) {
          ctx.addIssue({
            code: "custom",
            path: ["results", i, "locations", j, "physicalLocation", "artifactLocation", "uriBaseId"],
            message: `uriBaseId ${base} is not in originalUriBaseIds`,
          });
        }
      });
    });
  });

/** A SARIF 2.1.0 log as ra3 writes it. */
export const sarifLog = z.strictObject({
  $schema: z.string().optional(),
  version: z.literal("2.1.0"),
  runs: z.array(run),
});

export type SarifLog = z.infer<typeof sarifLog>;
