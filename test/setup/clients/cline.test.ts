// Cline CLI: its own file under ~/.cline/data/settings, entries in the shape `cline mcp add` writes.
import { defineGoldenSuite, invalidFileErrors } from "./golden-harness.ts";

const files = {
  windows: "C:\\Users\\Ann Lee\\.cline\\data\\settings\\cline_mcp_settings.json",
  macos: "/Users/ann/.cline/data/settings/cline_mcp_settings.json",
  linux: "/home/ann/.cline/data/settings/cline_mcp_settings.json",
};

defineGoldenSuite({
  client: "cline",
  scope: "user",
  ext: "json",
  files,
  existing: `{
  "mcpServers": {
    "weather": {
      "transport": {
        "type": "stdio",
        "command": "node",
        "args": ["/opt/weather/build/index.js"]
      }
    }
  }
}
`,
  invalid: `{"mcpServers": "none"}\n`,
  invalidErrors: invalidFileErrors(files, `1:16: "mcpServers" is a string, not an object`),
});
