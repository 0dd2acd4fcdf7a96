import { defineGoldenSuite, invalidFileErrors } from "./golden-harness.ts";

const files = {
  windows: "C:\\Users\\Ann Lee\\.cursor\\mcp.json",
  macos: "/Users/ann/.cursor/mcp.json",
  linux: "/home/ann/.cursor/mcp.json",
};

defineGoldenSuite({
  client: "cursor",
  scope: "user",
  ext: "json",
  files,
  existing: `{
  // my servers
  "mcpServers": {
    "playwright": {"command": "npx", "args": ["@playwright/mcp@latest"]}, // browser
    "context7": {
      "url": "https://mcp.context7.com/mcp"
    },
  }
}
`,
  existingWarnings: [
    "the file has comments or trailing commas, which Cursor may reject as invalid JSON; ra3 kept them as they are",
  ],
  invalid: `[]\n`,
  invalidErrors: invalidFileErrors(files, "1:1: the top level is an array, not an object"),
});
