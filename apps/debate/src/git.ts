import { spawn } from "node:child_process";

// Every git call on a repository someone handed over (the gate's scope and base, `gate eval build`
// and `run`) goes through here: the repository is data, so nothing it configures may run. Its own
// `.git/config` can name programs git would start on its own: a diff driver's `textconv` or
// `command`, `diff.external`, a `filter.<driver>` (clean, smudge, process), `core.fsmonitor`,
// hooks (`core.hooksPath`), a pager, `gpg.program` (through `log.showSignature`), a transport. Each
// is switched off below (git-config(1), gitattributes(5)); the system config is not read; every
// call has a time limit and a limit on what it prints.

/** Why a git call failed: git's own message, or the limit it ran into. */
export class GitError extends Error {
  /** The first line of git's stderr, or the limit (timed out, output too large). */
  readonly reason: string;
  constructor(message: string, reason: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "GitError";
    this.reason = reason;
  }
}

/** Options of one git call. */
export interface GitCallOptions {
  /** Killed after this long (default 120 s). */
  timeoutMs?: number;
  /** Killed, and an error, when stdout grows past this many bytes (default 64 MiB). */
  maxBytes?: number;
  /** The environment git runs in (default process.env), hardened below. */
  env?: NodeJS.ProcessEnv;
}

const MiB = 1024 * 1024;

/** Settings given on every call: they win over the repository's own config. */
const SAFE_CONFIG = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "core.pager=cat",
  "core.quotePath=false",
  "core.sshCommand=false",
  "core.askPass=",
  "credential.helper=",
  "diff.external=",
  "log.showSignature=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "protocol.allow=never",
  "protocol.file.allow=always",
].flatMap((c) => ["-c", c]);

/** Subcommands that show diffs: a diff driver's textconv or external command never runs. */
const DIFFING = new Set(["diff", "show", "log", "diff-tree", "format-patch"]);

/** The environment every call runs in: no system config, no prompt, no pager, no external diff. */
function safeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {
    ...env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    PAGER: "cat",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_LITERAL_PATHSPECS: "1",
    GIT_ATTR_NOSYSTEM: "1",
  };
  for (const name of [
    "GIT_EXTERNAL_DIFF",
    "GIT_DIFF_OPTS",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
  ])
    delete out[name];
  return out;
}

/** The subcommand's own flags that keep a repository's programs from running. */
function subcommandFlags(args: readonly string[]): string[] {
  const [sub, ...rest] = args;
  if (sub === undefined) return [];
  if (DIFFING.has(sub)) return [sub, "--no-textconv", "--no-ext-diff", ...rest];
  if (sub === "blame") return [sub, "--no-textconv", ...rest];
  return [...args];
}

// The filter drivers a repository's config names, by folder: each is set empty on every call there.
const filterDrivers = new Map<string, Promise<string[]>>();

/** `-c filter.<driver>.clean= ...` for every filter driver the config at `cwd` names (a clean or smudge command would run). */
async function filterOverrides(cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  let found = filterDrivers.get(cwd);
  if (!found) {
    found = spawnGit(cwd, ["config", "-z", "--name-only", "--get-regexp", "^filter\\."], env, {
      timeoutMs: 30_000,
      maxBytes: MiB,
    })
      .then((out) => {
        const names = out
          .toString("utf8")
          .split("\0")
          .filter(Boolean)
          .map((key) => key.slice("filter.".length, key.lastIndexOf(".")));
        return [...new Set(names)];
      })
      // `git config --get-regexp` exits 1 when nothing matches.
      .catch(() => []);
    filterDrivers.set(cwd, found);
  }
  return (await found).flatMap((driver) =>
    ["clean=", "smudge=", "process=", "required=false"].flatMap((k) => ["-c", `filter.${driver}.${k}`]),
  );
}

/** Runs git once: no shell, stdin closed, killed past its time or output limit. */
function spawnGit(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  limits: Required<Pick<GitCallOptions, "timeoutMs" | "maxBytes">>,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let size = 0;
    let stderr = "";
    let limit: string | undefined;
    const stop = (why: string) => {
      limit ??= why;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(
      () => stop(`timed out after ${Math.round(limits.timeoutMs / 1000)} s`),
      limits.timeoutMs,
    );
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes)
        return stop(`printed more than ${Math.round(limits.maxBytes / 1_000_000)} MB`);
      out.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(
        new GitError(
          `git ${args.find((a) => !a.startsWith("-") && !a.includes("="))}: ${error.message}`,
          error.message,
          { cause: error },
        ),
      );
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (limit === undefined && code === 0) return resolve(Buffer.concat(out));
      const reason = limit ?? (stderr.trim().split("\n")[0] || `exited ${code ?? signal}`);
      reject(new GitError(reason, reason));
    });
  });
}

/**
 * Runs `git args` in `cwd` on a repository that is data: the repository's textconv, external diff,
 * filters, fsmonitor, hooks, pager and signature programs never run, nor does the system config's;
 * paths are printed unquoted (core.quotePath=false) and pathspecs are literal. Fails with a
 * GitError naming git's message, or the limit it ran into.
 */
export async function gitBuffer(
  cwd: string,
  args: readonly string[],
  options: GitCallOptions = {},
): Promise<Buffer> {
  const env = safeEnv(options.env ?? process.env);
  const full = [...SAFE_CONFIG, ...(await filterOverrides(cwd, env)), "--no-pager", ...subcommandFlags(args)];
  try {
    return await spawnGit(cwd, full, env, {
      timeoutMs: options.timeoutMs ?? 120_000,
      maxBytes: options.maxBytes ?? 64 * MiB,
    });
  } catch (error) {
    const reason = error instanceof GitError ? error.reason : String(error);
    throw new GitError(`git ${args[0]} failed: ${reason}`, reason, { cause: error });
  }
}

/** gitBuffer's stdout as UTF-8 text. */
export async function gitText(
  cwd: string,
  args: readonly string[],
  options: GitCallOptions = {},
): Promise<string> {
  return (await gitBuffer(cwd, args, options)).toString("utf8");
}

/** Splits `-z` output into its NUL-terminated fields. */
export function nulFields(text: string): string[] {
  const fields = text.split("\0");
  if (fields.at(-1) === "") fields.pop();
  return fields;
}
