import { defineGoldenSuite, invalidFileErrors } from "./golden-harness.ts";

const files = {
  windows: "C:\\Users\\Ann Lee\\AppData\\Roaming\\Code\\User\\mcp.json",
  macos: "/Users/ann/Library/Application Support/Code/User/mcp.json",
  linux: "/home/ann/.config/Code/User/mcp.json",
};

// VS Code writes its own files with tabs; the edit must keep them.
defineGoldenSuite({
  client: "vscode",
  scope: "user",
  ext: "json",
  files,
  existing: `{
\t"servers": {
\t\t// GitHub's remote server
\t\t"github": {
\t\t\t"type": "http",
\t\t\t"url": "https://api.githubcopilot.com/mcp/"
\t\t}
\t},
\t"inputs": [
\t\t{ "type": "promptString", "id": "token", "password": true }
\t]
}
`,
  invalid: `{
\t"servers": {
\t\t"github": { "type": "http" },,
\t}
}
`,
  invalidErrors: invalidFileErrors(files, "3:32: not valid JSON (property name expected)"),
});
