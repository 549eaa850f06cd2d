import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Runs `git args` in `repo` (no shell) and returns its stdout; a failure names the command and git's message. */
export async function git(repo: string, ...args: string[]): Promise<string> {
  try {
    const { stdout } = await run("git", args, { cwd: repo, maxBuffer: 256 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`git ${args[0]} in ${repo}: ${stderr || String(error)}`, {
      cause: error,
    });
  }
}
