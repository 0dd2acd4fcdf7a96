import { defineGoldenSuite, invalidFileErrors } from "./golden-harness.ts";

const files = {
  windows: "C:\\Users\\Ann Lee\\.codeium\\windsurf\\mcp_config.json",
  macos: "/Users/ann/.codeium/windsurf/mcp_config.json",
  linux: "/home/ann/.codeium/windsurf/mcp_config.json",
};

defineGoldenSuite({
  client: "windsurf",
  scope: "user",
  ext: "json",
  files,
  existing: `{
  "mcpServers": {
    "remote-docs": {
      "serverUrl": "https://docs.example.com/mcp"
    },
    "local-db": {
      "command": "db-mcp",
      "args": [],
      "disabled": true
    }
  }
}
`,
  // A snippet pasted after the document instead of inside it.
  invalid: `{"mcpServers": {}}\n{"mcpServers": {"x": {"command": "x"}}}\n`,
  invalidErrors: invalidFileErrors(files, "2:1: not valid JSON (end of file expected)"),
});
