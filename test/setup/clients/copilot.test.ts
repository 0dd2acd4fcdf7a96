// GitHub Copilot CLI: ~/.copilot/mcp-config.json, entries as `copilot mcp add` writes them; JSONC.
import { defineGoldenSuite, invalidFileErrors } from "./golden-harness.ts";

const files = {
  windows: "C:\\Users\\Ann Lee\\.copilot\\mcp-config.json",
  macos: "/Users/ann/.copilot/mcp-config.json",
  linux: "/home/ann/.copilot/mcp-config.json",
};

defineGoldenSuite({
  client: "copilot",
  scope: "user",
  ext: "json",
  files,
  // Copilot accepts comments and trailing commas (verified with copilot mcp list --json): both are kept.
  existing: `{
  // servers for the CLI
  "mcpServers": {
    "github": {
      "tools": ["*"],
      "type": "local",
      "command": "gh-mcp",
      "args": ["stdio"],
    },
  }
}
`,
  invalid: `{
  "mcpServers": {
    "github": { "command": "gh-mcp" }
    "x": {}
  }
}
`,
  invalidErrors: invalidFileErrors(files, "4:5: not valid JSON (comma expected)"),
});
