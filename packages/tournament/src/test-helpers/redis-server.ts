import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";

// Debian's redis-server, installed by scripts/install-redis.mjs: the tests refuse to run without it.
const REDIS = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((p) => existsSync(p));

/** A loopback port nobody listens on (just now). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** Starts redis-server on a free loopback port without persistence (never a system service). */
export async function startRedisServer(): Promise<{ url: string; server: ChildProcess }> {
  if (!REDIS) throw new Error("redis-server is missing: run `node scripts/install-redis.mjs`");
  const port = await freePort();
  const server = spawn(
    REDIS,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((done, fail) => {
    let out = "";
    server.stdout!.on("data", (d) => {
      out += String(d);
      if (/Ready to accept connections/.test(out)) done();
    });
    server.once("exit", () => fail(new Error(`redis-server exited: ${out}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, server };
}
