import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";

/** How the agent process ended (or could not start). */
export interface AgentExit {
  exitCode: number | null;
  signal: string | null;
  spawnError?: { code: string; message: string };
}

const maxStderrBytes = 256 * 1024;

/** True while any process of the group `pgid` exists. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * An ACP agent started without a shell in its own process group, with stdin and stdout kept
 * open for JSON-RPC (unlike `runProcess`, which closes stdin after the prompt).
 */
export class AgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Resolves when the agent exits or fails to start. */
  readonly exited: Promise<AgentExit>;
  private readonly closed: Promise<void>;
  private stderrChunks: Buffer[] = [];
  private stderrSize = 0;
  private exit: AgentExit | undefined;

  constructor(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
    this.child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      shell: false,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    this.child.stderr.on("data", (chunk: Buffer) => {
      if (this.stderrSize >= maxStderrBytes) return;
      this.stderrChunks.push(chunk.subarray(0, maxStderrBytes - this.stderrSize));
      this.stderrSize += chunk.length;
    });
    this.exited = new Promise((resolve) => {
      this.child.on("error", (error: NodeJS.ErrnoException) => {
        this.exit = {
          exitCode: null,
          signal: null,
          spawnError: { code: error.code ?? "ESPAWN", message: error.message },
        };
        resolve(this.exit);
      });
      this.child.on("exit", (code, signal) => {
        this.exit = { exitCode: code, signal };
        resolve(this.exit);
      });
    });
    this.closed = new Promise((resolve) => {
      this.child.on("close", () => resolve());
      this.child.on("error", () => resolve());
    });
  }

  /** What the agent wrote on stderr (at most 256 KiB). */
  stderr(): string {
    return Buffer.concat(this.stderrChunks).toString("utf8");
  }

  /** True once the agent process has exited. */
  hasExited(): boolean {
    return this.exit !== undefined;
  }

  /**
   * Ends the agent and everything it started: stdin closed, SIGTERM to the group, SIGKILL after
   * `graceMs`, and a final SIGKILL for leftovers of a group whose leader already exited.
   */
  async terminate(graceMs = 2000): Promise<AgentExit> {
    const pgid = this.child.pid;
    this.child.stdin.end();
    if (pgid !== undefined) {
      if (!this.exit) {
        signalGroup(pgid, "SIGTERM");
        await Promise.race([this.exited, delay(graceMs)]);
      }
      if (groupAlive(pgid)) signalGroup(pgid, "SIGKILL");
    }
    const exit = await this.exited;
    // Pipes close once every holder is gone; do not wait forever on a stubborn descendant.
    await Promise.race([this.closed, delay(1000)]);
    return exit;
  }
}
