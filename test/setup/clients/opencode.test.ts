import { defineGoldenSuite, invalidFileErrors } from "./golden-harness.ts";

const files = {
  windows: "C:\\Users\\Ann Lee\\.config\\opencode\\opencode.json",
  macos: "/Users/ann/.config/opencode/opencode.json",
  linux: "/home/ann/.config/opencode/opencode.json",
};

defineGoldenSuite({
  client: "opencode",
  scope: "user",
  ext: "json",
  files,
  existing: `{
  "$schema": "https://opencode.ai/config.json",
  "theme": "tokyonight",
  "mcp": {
    // hosted
    "jira": {
      "type": "remote",
      "url": "https://jira.example.com/mcp",
      "enabled": true
    }
  }
}
`,
  invalid: `{"mcp": {"a": 1,, }}`,
  invalidErrors: invalidFileErrors(files, "1:17: not valid JSON (property name expected)"),
});
