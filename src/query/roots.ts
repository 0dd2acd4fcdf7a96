/**
 * Which paths a question may name: those inside the folders ra3 reads (`allowedRoots` in
 * `project/paths.ts`: the project, the SDK, the mod's parent and grandparent). Answered from the path
 * alone, never from the disk, so a refusal says nothing about what exists there.
 */
import { allowedRoots, insideRoots } from "../project/paths.ts";
import type { LinkedIndex } from "../index/linked.ts";
import { type QueryError, queryError } from "./envelope.ts";

/**
 * The `outside_project` error for `written` (absolute: `abs`) when it lies outside the allowed roots,
 * else null; `what` is the message's request (`a path`, `paths`, `a file`).
 * @example outsideRoots(linked, "/etc/passwd", "/etc/passwd", "a path")?.error.message // "/etc/passwd is outside the folders ra3 reads (…); pass a path inside the project"
 */
export function outsideRoots(
  linked: Pick<LinkedIndex, "projectDir" | "sdkDir">,
  written: string,
  abs: string,
  what: "a path" | "paths" | "a file",
): QueryError | null {
  const roots = allowedRoots(linked);
  if (insideRoots(abs, roots)) return null;
  return queryError(
    "outside_project",
    `${written} is outside the folders ra3 reads (${roots.join(", ")}); pass ${what} inside the project`,
  );
}
