import { defineGoldenSuite, invalidFileErrors } from "./golden-harness.ts";

const files = {
  windows: "C:\\Users\\Ann Lee\\.gemini\\settings.json",
  macos: "/Users/ann/.gemini/settings.json",
  linux: "/home/ann/.gemini/settings.json",
};

// No servers yet: the servers key itself is added after the user's other settings.
defineGoldenSuite({
  client: "gemini",
  scope: "user",
  ext: "json",
  files,
  existing: `{
  "theme": "GitHub", // dark themes hurt
  "selectedAuthType": "oauth-personal",
  "checkpointing": { "enabled": true }
}
`,
  invalid: `{
  "theme": "GitHub"
  "mcpServers": {}
}
`,
  invalidErrors: invalidFileErrors(files, "3:3: not valid JSON (comma expected)"),
});
