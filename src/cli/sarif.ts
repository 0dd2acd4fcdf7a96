/**
 * SARIF 2.1.0 rendering of `ra3 check` results, for CI systems and code-scanning UIs. Paths are relative
 * to the project root (`PROJECTROOT` base id); index-wide notes become results without a location.
 * Diagnostics beyond the caps become one summary result per file and code (rule `diagnostics-not-listed`,
 * the exact count in its message and `properties`), and the run's invocation carries one notification
 * with the total, so a code-scanning UI shows that the list is not complete.
 */
import { pathToFileURL } from "node:url";
import type { DiagnosticView } from "../query/check.ts";
import { type UnlistedDiagnostics, unlistedSentence } from "../query/diagnostic-caps.ts";
import { describeCode, NOT_LISTED_CODE } from "../query/diagnostic-codes.ts";
import { TOOL_VERSION } from "../version.ts";

const SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json";

const LEVEL = { error: "error", warning: "warning", information: "note" } as const;

/** A SARIF log for `diagnostics` found in `projectDir`, and the `unlisted` ones summarised. */
export function toSarif(
  projectDir: string,
  diagnostics: readonly DiagnosticView[],
  unlisted: readonly UnlistedDiagnostics[] = [],
): Record<string, unknown> {
  const codes = [...new Set([...diagnostics.map((d) => d.code), ...(unlisted.length ? [NOT_LISTED_CODE] : [])])]
    .sort();
  const ruleIndex = new Map(codes.map((c, i) => [c, i]));
  const hidden = unlisted.reduce((a, u) => a + u.count, 0);
  let base = pathToFileURL(projectDir).href;
  if (!base.endsWith("/")) base += "/";
  return {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "ra3",
            version: TOOL_VERSION,
            rules: codes.map((code) => {
              const c = describeCode(code);
              return {
                id: code,
                shortDescription: { text: c.description },
                defaultConfiguration: { level: LEVEL[c.severity] },
              };
            }),
          },
        },
        originalUriBaseIds: { PROJECTROOT: { uri: base } },
        results: [
          ...diagnostics.map((d) => resultOf(ruleIndex, d.code, d.severity, d.message, d.file, d.line, d.column)),
          ...unlisted.map((u) => ({
            ...resultOf(ruleIndex, NOT_LISTED_CODE, "information", unlistedSentence(u), u.file, u.line, u.column),
            properties: { code: u.code, severity: u.severity, count: u.count },
          })),
        ],
        ...(hidden > 0
          ? {
            invocations: [{
              executionSuccessful: true,
              toolExecutionNotifications: [{
                level: "note",
                message: {
                  text: `${hidden} diagnostics are not listed as results (see the ${NOT_LISTED_CODE} results)`,
                },
                associatedRule: { id: NOT_LISTED_CODE, index: ruleIndex.get(NOT_LISTED_CODE) },
              }],
            }],
          }
          : {}),
        columnKind: "utf16CodeUnits",
      },
    ],
  };
}

/** One SARIF result (with a location when the diagnostic has a file). */
function resultOf(
  ruleIndex: ReadonlyMap<string, number>,
  code: string,
  severity: DiagnosticView["severity"],
  message: string,
  file: string | null,
  line: number,
  column: number,
): Record<string, unknown> {
  const result: Record<string, unknown> = {
    ruleId: code,
    ruleIndex: ruleIndex.get(code),
    level: LEVEL[severity],
    message: { text: message },
  };
  if (file) {
    result.locations = [
      {
        physicalLocation: {
          artifactLocation: { uri: encodeURI(file), uriBaseId: "PROJECTROOT" },
          region: { startLine: Math.max(1, line), startColumn: Math.max(1, column) },
        },
      },
    ];
  }
  return result;
}
