// What the queue tests share: Debian's redis-server (started by each test on a free loopback port,
// never a system service), the CLI as a child process, and waiting on the processes they start.
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { repoRoot } from "./workspace.js";

/** redis-server's path; the tests refuse to run without it (no skipping). */
export const REDIS = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((p) => existsSync(p));

// `npm test` runs scripts/install-redis.mjs first, which installs it or says how.
if (!REDIS)
  throw new Error(
    "redis-server is missing: run `node scripts/install-redis.mjs` (Debian: apt-get install redis-server)",
  );

/** A loopback port nobody listens on (just now). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => done(port));
    });
  });
}

/** Resolves with how `child` ended, at once if it already has. */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null)
      done({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => done({ code, signal }));
  });
}

/** The built CLI started with `args`; what it prints is collected as it comes. */
export function spawnDebate(args: string[], options: SpawnOptions) {
  const child = spawn(process.execPath, [join(repoRoot, "apps/debate/dist/bin.js"), ...args], {
    ...options,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => {
    stdout += String(d);
  });
  child.stderr!.on("data", (d) => {
    stderr += String(d);
  });
  return { child, out: () => stdout, err: () => stderr };
}

/** Makes every replay answer of a tournament folder's debates wait `delayMs` (a seat call in flight to stop or kill). */
export async function delayReplays(dir: string, delayMs: number): Promise<void> {
  for (const id of await readdir(join(dir, "debates"))) {
    const file = join(dir, "debates", id, "replay.jsonl");
    const lines = (await readFile(file, "utf8")).split("\n").filter(Boolean);
    await writeFile(
      file,
      `${lines.map((l) => JSON.stringify({ ...JSON.parse(l), delay_ms: delayMs })).join("\n")}\n`,
    );
  }
}

/**
 * A Redis that takes connections and then stops answering, on a free loopback port: it answers the
 * handshake as a Redis 5 would (HELLO refused, AUTH, CLIENT, SELECT, INFO, PING) and nothing else,
 * ever (the commands are read and left without a reply). `commands` lists what it was sent.
 */
export async function startStuckRedis(): Promise<{
  port: number;
  commands: string[];
  close(): Promise<void>;
}> {
  const commands: string[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const info = "# Server\r\nredis_version:7.2.4\r\nloading:0\r\n";
  const replies: Record<string, string> = {
    HELLO: "-ERR unknown command 'HELLO'\r\n",
    AUTH: "+OK\r\n",
    CLIENT: "+OK\r\n",
    SELECT: "+OK\r\n",
    PING: "+PONG\r\n",
    INFO: `$${Buffer.byteLength(info)}\r\n${info}\r\n`,
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let pending = Buffer.alloc(0);
    socket.on("data", (data) => {
      pending = Buffer.concat([pending, data]);
      for (let command = readCommand(pending); command; command = readCommand(pending)) {
        pending = pending.subarray(command.length);
        const name = command.args[0]!.toUpperCase();
        commands.push(name);
        const reply = replies[name];
        if (reply) socket.write(reply);
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    port: (server.address() as { port: number }).port,
    commands,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

/** One RESP command (an array of bulk strings) at the start of `data`, or undefined when incomplete. */
function readCommand(data: Buffer): { args: string[]; length: number } | undefined {
  const text = data.toString("latin1");
  const head = /^\*(\d+)\r\n/.exec(text);
  if (!head) return undefined;
  let at = head[0].length;
  const args: string[] = [];
  for (let i = 0; i < Number(head[1]); i++) {
    const bulk = /^\$(\d+)\r\n/.exec(text.slice(at));
    if (!bulk) return undefined;
    at += bulk[0].length;
    const size = Number(bulk[1]);
    if (text.length < at + size + 2) return undefined;
    args.push(text.slice(at, at + size));
    at += size + 2;
  }
  return { args, length: at };
}
