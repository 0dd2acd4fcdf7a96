/**
 * SARIF 2.1.0 rendering of `ra3 check` results, for CI systems and code-scanning UIs. Paths are relative
 * to the project root (`PROJECTROOT` base id); index-wide notes become results without a location.
 */
import { pathToFileURL } from "node:url";
import type { DiagnosticView } from "../query/check.ts";
import { describeCode } from "../query/diagnostic-codes.ts";
import { TOOL_VERSION } from "../version.ts";

export const SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json";

const LEVEL = { error: "error", warning: "warning", information: "note" } as const;

/** A SARIF log for `diagnostics` found in `projectDir`. */
export function toSarif(projectDir: string, diagnostics: readonly DiagnosticView[]): Record<string, unknown> {
  const codes = [...new Set(diagnostics.map((d) => d.code))].sort();
  const ruleIndex = new Map(codes.map((c, i) => [c, i]));
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
        results: diagnostics.map((d) => {
          const result: Record<string, unknown> = {
            ruleId: d.code,
            ruleIndex: ruleIndex.get(d.code),
            level: LEVEL[d.severity],
            message: { text: d.message },
          };
          if (d.file) {
            result.locations = [
              {
                physicalLocation: {
                  artifactLocation: { uri: encodeURI(d.file), uriBaseId: "PROJECTROOT" },
                  region: { startLine: Math.max(1, d.line), startColumn: Math.max(1, d.column) },
                },
              },
            ];
          }
          return result;
        }),
        columnKind: "utf16CodeUnits",
      },
    ],
  };
}
