import { gitText } from "../git.js";

/**
 * Runs `git args` in `repo` through the shared runner (../git.ts: nothing the repository configures
 * runs, with a time limit) and returns its stdout; a failure names the command, the folder and git's message.
 */
export async function git(repo: string, ...args: string[]): Promise<string> {
  try {
    return await gitText(repo, args, { maxBytes: 256 * 1024 * 1024, timeoutMs: 300_000 });
  } catch (error) {
    const reason = (error as { reason?: string }).reason ?? String(error);
    throw new Error(`git ${args[0]} in ${repo}: ${reason}`, { cause: error });
  }
}

/**
 * A private clone of the case's repository at `tree`, checked out at `head` (a commit id, as the set
 * file's schema requires): a clone, not a worktree, so the case's repository on disk is never
 * written to, and only from a folder on disk (no transport runs).
 */
export async function cloneCase(work: string, repo: string, head: string, tree: string): Promise<void> {
  await git(work, "clone", "-q", "--shared", "--no-checkout", "--", repo, tree);
  await git(tree, "checkout", "-q", "--detach", head, "--");
}
