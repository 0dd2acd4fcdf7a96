/** The tool's version, from package.json (embedded in the binary at build time). */
import pkg from "../package.json" with { type: "json" };

export const TOOL_VERSION: string = pkg.version;
