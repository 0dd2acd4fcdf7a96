import { defineGoldenSuite, invalidFileErrors } from "./golden-harness.ts";

const files = {
  windows:
    "C:\\Users\\Ann Lee\\AppData\\Roaming\\Code\\User\\globalStorage\\saoudrizwan.claude-dev\\settings\\cline_mcp_settings.json",
  macos:
    "/Users/ann/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
  linux: "/home/ann/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
};

defineGoldenSuite({
  client: "cline-vscode",
  scope: "user",
  ext: "json",
  files,
  existing: `{
  "mcpServers": {
    "weather": {
      "command": "node",
      "args": ["/opt/weather/build/index.js"],
      "disabled": false,
      "autoApprove": ["get_forecast"]
    }
  }
}
`,
  invalid: `{"mcpServers": "none"}\n`,
  invalidErrors: invalidFileErrors(files, `1:16: "mcpServers" is a string, not an object`),
});
