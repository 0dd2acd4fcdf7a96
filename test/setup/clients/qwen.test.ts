// Qwen Code: ~/.qwen/settings.json with Gemini's shape; comments kept, a trailing comma refused.
import { defineGoldenSuite, invalidFileErrors } from "./golden-harness.ts";

const files = {
  windows: "C:\\Users\\Ann Lee\\.qwen\\settings.json",
  macos: "/Users/ann/.qwen/settings.json",
  linux: "/home/ann/.qwen/settings.json",
};

defineGoldenSuite({
  client: "qwen",
  scope: "user",
  ext: "json",
  files,
  existing: `{
  // Qwen reads comments
  "security": { "auth": { "selectedType": "qwen-oauth" } },
  "mcpServers": {
    "fetch": { "command": "uvx", "args": ["mcp-server-fetch"] }
  }
}
`,
  invalid: `{
  "mcpServers": {
    "fetch": { "command": "uvx" },
  }
}
`,
  invalidErrors: invalidFileErrors(
    files,
    "3:34: a trailing comma, which Qwen Code refuses (it ignores the whole file until the comma is removed)",
  ),
});
