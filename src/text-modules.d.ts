// Text imports (`import x from "./a.md" with { type: "text" }`) are supported by Bun and Deno.
declare module "*.md" {
  const text: string;
  export default text;
}
