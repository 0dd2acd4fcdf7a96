// Writes a synthetic, deterministic RA3 mod for benchmarks (DESIGN.md §Targets): at scale 1 about
// 8,000 XML files / 38 MB, 32,000 assets, 100,000 reference sites and 3,000 .w3x files, plus its own
// Schemas/xsd/ so it indexes in full schema mode. Same seed and scale ⇒ byte-identical output.
//
// Usage: node_modules/.bin/bun scripts/gen-corpus.ts --out DIR [--scale 1] [--seed 1] [--art-mb N]
//   --out DIR     new or empty folder to write the mod into (don't put generated data in the repo)
//   --scale F     multiplies file, asset, reference and art counts (0.1, 0.5, 2 …); default 1
//   --seed N      integer seed; default 1
//   --art-mb N    total size of the .w3x files in MB (10^6 bytes); default 300 × scale
// Prints a summary table (files, MB, assets by type, reference sites by kind, defines, xi:includes, time).
import { parseArgs } from "node:util";
import { generateCorpus, GenerateError, renderSummary } from "./gen-corpus/generate.ts";

const USAGE = "usage: bun scripts/gen-corpus.ts --out DIR [--scale 1] [--seed 1] [--art-mb N]";

function main(argv: string[]): number {
  let values: { out?: string; scale?: string; seed?: string; "art-mb"?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        out: { type: "string" },
        scale: { type: "string" },
        seed: { type: "string" },
        "art-mb": { type: "string" },
        help: { type: "boolean" },
      },
      strict: true,
    }));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.out) {
    console.error(`--out is required\n${USAGE}`);
    return 2;
  }
  try {
    const summary = generateCorpus({
      out: values.out,
      scale: values.scale === undefined ? 1 : Number(values.scale),
      seed: values.seed === undefined ? 1 : Number(values.seed),
      artMb: values["art-mb"] === undefined ? undefined : Number(values["art-mb"]),
    });
    console.log(renderSummary(summary));
    return 0;
  } catch (e) {
    if (e instanceof GenerateError) {
      console.error(`${e.message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
}

process.exit(main(process.argv.slice(2)));
