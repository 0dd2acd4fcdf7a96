/**
 * The real-process side of setup, doctor and uninstall: the user's platform read from the environment
 * a command was given, whether a question can be asked, and asking it on the terminal.
 */
import { homedir } from "node:os";
import { createInterface } from "node:readline";
import { native } from "../project/paths.ts";
import { osFromNodePlatform, type Platform } from "./platform.ts";

/** The user's home folder: `%USERPROFILE%` on Windows, `$HOME` elsewhere, else `os.homedir()`. */
export function userHomeOf(env: Readonly<Record<string, string | undefined>>): string {
  const fromEnv = process.platform === "win32" ? env.USERPROFILE : env.HOME;
  return fromEnv && fromEnv.trim() !== "" ? fromEnv : homedir();
}

/** The running OS as a {@link Platform}, with the home folder and variables from `env`. */
export function platformFromEnv(env: Readonly<Record<string, string | undefined>>): Platform {
  return { os: osFromNodePlatform(process.platform), home: userHomeOf(env), env, pathFlavour: native };
}

/** True when both stdin and stdout are terminals, so a yes/no question can be asked. */
export function canAsk(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

/** Asks `question` on the terminal; true only for an answer starting with y/Y. */
export function askYesNo(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      resolve(/^\s*y/i.test(answer));
      rl.close();
    });
    // stdin ending without an answer (Ctrl-D) counts as no; after an answer this is a no-op.
    rl.once("close", () => resolve(false));
  });
}
