import { defineGoldenSuite, invalidFileErrors } from "./golden-harness.ts";

const files = {
  windows: "C:\\Users\\Ann Lee\\AppData\\Roaming\\Claude\\claude_desktop_config.json",
  macos: "/Users/ann/Library/Application Support/Claude/claude_desktop_config.json",
  linux: "/home/ann/.config/Claude/claude_desktop_config.json",
};

defineGoldenSuite({
  client: "claude-desktop",
  scope: "user",
  ext: "json",
  files,
  existing: `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/ann/Desktop"]
    }
  },
  // added by hand
  "globalShortcut": ""
}
`,
  existingWarnings: [
    "the file has comments or trailing commas, which Claude Desktop may reject as invalid JSON; ra3 kept them as they are",
  ],
  invalid: `{
  "mcpServers": {
    "other": { "command": "x" }
    "broken": {}
  }
}
`,
  invalidErrors: invalidFileErrors(files, "4:5: not valid JSON (comma expected)"),
});
