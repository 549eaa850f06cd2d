import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, debateBin, exists, newcomer, newManualDebate, until } from "./newcomer.js";
import { folderFingerprint, repoRoot } from "./workspace.js";

// `debate serve` refuses what it must, through a real server process and raw HTTP (a browser would
// not let a test forge Host or Origin): no token, a wrong token, a foreign Host, a post without the
// form token, paths that climb out, a symlink out of the folder. Nothing is read or written for them.

let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

interface Served {
  process: ChildProcess;
  port: number;
  token: string;
  /** The secret path the server lies under (`/s/<instance>`): its URL's path without the last slash. */
  base: string;
}

async function startServe(args: string[] = ["debates"]): Promise<Served> {
  const child = spawn(process.execPath, [debateBin, "serve", ...args, "--port", "0"], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  const pattern = /open http:\/\/127\.0\.0\.1:(\d+)(\/s\/[\w-]+)\/\?token=(\S+)/;
  await until("the server prints its URL", () => pattern.test(out), 20_000);
  const [, port, base, token] = pattern.exec(out)!;
  return { process: child, port: Number(port), token: token!, base: base! };
}

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * One raw HTTP request to the server, headers as given (Host included); `path` is under the server's
 * secret prefix unless `bare` (then it is the request's whole path).
 */
function http(
  served: Served,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; bare?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: served.port,
        path: options.bare ? path : `${served.base}${path}`,
        method: options.method ?? "GET",
        headers: { host: `127.0.0.1:${served.port}`, ...options.headers },
      },
      (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** An authenticated POST of `size` bytes, sent chunked until the server answers. */
function hugePost(served: Served, size: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      {
        host: "127.0.0.1",
        port: served.port,
        path: `${served.base}/d/m/answer`,
        method: "POST",
        headers: {
          host: `127.0.0.1:${served.port}`,
          cookie: `debatekit_serve_${served.port}=${served.token}`,
          "content-type": "application/x-www-form-urlencoded",
          "transfer-encoding": "chunked",
        },
      },
      (res) => {
        answered = true;
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      },
    );
    // Once answered, the server may close the connection on the rest of the body.
    req.on("error", (error) => answered || reject(error));
    const chunk = Buffer.alloc(1024 * 1024, "a");
    let sent = 0;
    const pump = () => {
      while (!answered && sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

const cookie = (s: Served) => ({ cookie: `debatekit_serve_${s.port}=${s.token}` });
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const formHeaders = { "content-type": "application/x-www-form-urlencoded" };

let served: Served;
let csrf: string;

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("serve-security-"));
  await mkdir(join(cwd, "debates"));
  expect(
    newManualDebate("This house would write tests first", "m", { cwd: join(cwd, "debates"), env }).code,
  ).toBe(0);
  // A debate folder elsewhere, and a symlink to it inside the served folder: never served.
  await mkdir(join(root, "outside"));
  expect(
    newManualDebate("This house would ban meetings", "secret", { cwd: join(root, "outside"), env }).code,
  ).toBe(0);
  await symlink(join(root, "outside", "secret"), join(cwd, "debates", "linked"));
  served = await startServe();
  const page = await http(served, "/", { headers: cookie(served) });
  csrf = /data-csrf="([^"]+)"/.exec(page.body)![1]!;
}, 60_000);

afterAll(async () => {
  served?.process.kill("SIGTERM");
  await rm(root, { recursive: true, force: true });
});

describe("debate serve refuses", () => {
  it("listens on 127.0.0.1 only, and a request without the token, or with a wrong one", async () => {
    // This machine's own other addresses (its network interfaces) find nothing listening on the port.
    const own = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && a.family === "IPv4" && !a.internal)
      .map((a) => a!.address);
    for (const address of own) {
      const reached = await new Promise<boolean>((resolve) => {
        const socket = connect({ host: address, port: served.port }, () => {
          socket.destroy();
          resolve(true);
        });
        socket.on("error", () => resolve(false));
      });
      expect(reached, address).toBe(false);
    }
    for (const path of ["/", "/d/m", "/events", "/static/serve.js", "/?token=wrong"]) {
      const answer = await http(served, path);
      expect(answer.status, path).toBe(403);
      expect(answer.body).not.toContain("write-tests-first");
    }
    expect(
      (await http(served, "/", { headers: { cookie: `debatekit_serve_${served.port}=wrong` } })).status,
    ).toBe(403);
    // The token under another server's cookie name (the browser sends every 127.0.0.1 cookie): refused.
    expect(
      (await http(served, "/", { headers: { cookie: `debatekit_serve_${served.port + 1}=${served.token}` } }))
        .status,
    ).toBe(403);
    // The right token in the URL becomes a cookie only this site sends, and leaves the address.
    const first = await http(served, `/?token=${served.token}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe(`${served.base}/`);
    expect(String(first.headers["set-cookie"])).toMatch(/HttpOnly/i);
    expect(String(first.headers["set-cookie"])).toMatch(new RegExp(`^debatekit_serve_${served.port}=`));
    expect(String(first.headers["set-cookie"])).toMatch(/SameSite=Strict/i);
    const page = await http(served, "/", { headers: cookie(served) });
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(page.headers["content-security-policy"]).not.toContain("unsafe-inline");
  });

  it("the token's redirect stays on this server: a path that starts with // is not another host", async () => {
    // Outside the secret prefix, even with the token: 404, no cookie, no redirect.
    for (const path of ["//evil.example/x", "///evil.example/x", "/%2F%2Fevil.example"]) {
      const answer = await http(served, `${path}?token=${served.token}`, { bare: true });
      expect(answer.status, path).toBe(404);
      expect(answer.headers.location, path).toBeUndefined();
      expect(answer.headers["set-cookie"], path).toBeUndefined();
    }
    for (const path of ["//evil.example/x", "///evil.example/x", "/%2F%2Fevil.example", "/d/m"]) {
      const answer = await http(served, `${path}?token=${served.token}`);
      expect(answer.status, path).toBe(303);
      expect(answer.headers.location, path).toBe(`${served.base}${path}`);
      // Read by a browser against this server's address, the Location is this server.
      expect(new URL(answer.headers.location!, `http://127.0.0.1:${served.port}/`).origin).toBe(
        `http://127.0.0.1:${served.port}`,
      );
    }
  });

  it("the token's cookie goes only to this server's secret path: outside it, 404 and nothing of the token", async () => {
    const first = await http(served, `/?token=${served.token}`);
    const setCookie = String(first.headers["set-cookie"]);
    // The cookie's Path is the secret prefix: a browser sends it to no other path of 127.0.0.1, so to
    // no other server there (which cannot guess the prefix; 128 random bits).
    expect(setCookie).toMatch(new RegExp(`; Path=${served.base}(;|$)`));
    expect(served.base).toMatch(/^\/s\/[\w-]{22}$/);
    // With the cookie, any path outside the prefix: 404, and the token, the prefix and the debates unsaid.
    for (const path of [
      "/",
      "/d/m",
      "/events",
      "/static/serve.js",
      "/rows",
      "/s/",
      "/s/other/",
      `${served.base}x/`,
    ]) {
      const answer = await http(served, path, { bare: true, headers: cookie(served) });
      expect(answer.status, path).toBe(404);
      expect(answer.headers["set-cookie"], path).toBeUndefined();
      for (const secret of [served.token, served.base, csrf, "write-tests-first"])
        expect(answer.body, path).not.toContain(secret);
    }
    // Under the prefix, the same cookie is the session.
    expect((await http(served, "/rows", { headers: cookie(served) })).status).toBe(200);
  });

  it("a body over the limit is refused while it is read: 413, and the server's memory does not grow with it", async () => {
    const peak = async () =>
      Number(/^VmHWM:\s+(\d+) kB$/m.exec(await readFile(`/proc/${served.process.pid}/status`, "utf8"))![1]) *
      1024;
    const before = await peak();
    // 150 MB sent chunked (no length to refuse up front), as fast as the server takes it.
    const answer = await hugePost(served, 150 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(answer.body).toContain("refused: the request is over");
    expect((await peak()) - before).toBeLessThan(100 * 1024 * 1024);
    // A declared length over the limit is refused before any of the body is read.
    const declared = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: served.port,
          path: `${served.base}/d/m/answer`,
          method: "POST",
          headers: {
            host: `127.0.0.1:${served.port}`,
            ...cookie(served),
            ...formHeaders,
            "content-length": String(150 * 1024 * 1024),
          },
        },
        (res) => {
          res.resume();
          req.destroy();
          resolve(res.statusCode!);
        },
      );
      req.on("error", reject);
      // The headers alone: the server answers without waiting for a byte of the body.
      req.flushHeaders();
    });
    expect(declared).toBe(413);
    expect(await http(served, "/rows", { headers: cookie(served) }).then((a) => a.status)).toBe(200);
  }, 60_000);

  it("a Host header that is not this loopback server (DNS rebinding), even with the token", async () => {
    for (const host of [
      "evil.example:" + served.port,
      `127.0.0.1:${served.port + 1}`,
      "localhost.evil.example",
      "192.168.1.2:" + served.port,
    ]) {
      const answer = await http(served, "/", { headers: { ...cookie(served), host } });
      expect(answer.status, host).toBe(403);
      expect(answer.body).not.toContain("data-csrf");
    }
    expect(
      (await http(served, "/", { headers: { ...cookie(served), host: `localhost:${served.port}` } })).status,
    ).toBe(200);
  });

  it("a post without the form token, with a wrong one, or from another site: nothing written", async () => {
    const dir = join(cwd, "debates/m");
    const before = await folderFingerprint(dir);
    const tries: Array<[Record<string, string>, Record<string, string>]> = [
      [{}, { paused: "true" }],
      [{}, { csrf: "wrong" }],
      [{ origin: "http://evil.example" }, { csrf }],
    ];
    for (const [headers, fields] of tries) {
      const answer = await http(served, "/d/m/pause", {
        method: "POST",
        headers: { ...cookie(served), ...formHeaders, ...headers },
        body: form(fields),
      });
      expect(answer.status).toBe(403);
    }
    expect(await folderFingerprint(dir)).toEqual(before);
    // With the token, from this page: the edit is made.
    const ok = await http(served, "/d/m/pause", {
      method: "POST",
      headers: { ...cookie(served), ...formHeaders, origin: `http://127.0.0.1:${served.port}` },
      body: form({ csrf }),
    });
    expect(ok.status).toBe(303);
    expect(await readFile(join(dir, "debate.md"), "utf8")).toMatch(/^paused: true$/m);
  });

  it("paths that climb out (plain, encoded, doubly encoded) and a symlinked debate: nothing read", async () => {
    for (const path of [
      "/d/../../outside/secret",
      "/d/%2e%2e%2f%2e%2e%2foutside",
      "/d/..%2F..%2Fetc%2Fpasswd",
      "/d/%252e%252e%252f",
      "/d/linked",
      "/d/linked/report",
      "/static/../../package.json",
    ]) {
      const answer = await http(served, path, { headers: cookie(served) });
      expect([403, 404], path).toContain(answer.status);
      expect(answer.body).not.toContain("ban meetings");
      expect(answer.body).not.toContain("root:");
    }
    const list = await http(served, "/rows", { headers: cookie(served) });
    expect(list.body).toContain('data-debate="m"');
    expect(list.body).not.toContain("linked");
    // An answer for a stem the debate does not wait for is never a path: refused, nothing written.
    const answer = await http(served, "/d/m/answer", {
      method: "POST",
      headers: { ...cookie(served), ...formHeaders },
      body: form({ csrf, stem: "../../outside/x", text: "{}" }),
    });
    expect(answer.status).toBe(409);
    expect(await readdir(join(root, "outside"))).toEqual(["secret"]);
    expect(await exists(join(cwd, "debates/m/inbox"))).toBe(false);
  });
});

describe("debate serve killed while an answer is being written", () => {
  it("a symlinked inbox/ in a debate folder: the answer is refused with a 4xx naming it, no stack, nothing written through it", async () => {
    const motion = "This house would require a second AI model's review before merging AI-written code";
    expect(newManualDebate(motion, "sym", { cwd: join(cwd, "debates"), env }).code).toBe(0);
    const dir = join(cwd, "debates/sym");
    expect(debate(["run", dir], { cwd, env }).code).toBe(0);
    const elsewhere = join(root, "elsewhere");
    await mkdir(elsewhere, { recursive: true });
    await rm(join(dir, "inbox"), { recursive: true, force: true });
    await symlink(elsewhere, join(dir, "inbox"));
    const text = (await readFile(join(repoRoot, "examples/ai-review-gate/replay.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((e) => e.exchange === 0 && e.role === "proposition").text as string;
    const answer = await http(served, "/d/sym/answer", {
      method: "POST",
      headers: { ...cookie(served), ...formHeaders },
      body: form({ csrf, stem: "e000-proposition", text }),
    });
    expect(answer.status, answer.body).toBeGreaterThanOrEqual(400);
    expect(answer.status, answer.body).toBeLessThan(500);
    expect(answer.body).toMatch(/inbox.*symbolic link/);
    expect(answer.body).not.toMatch(/\n\s+at /);
    // The typed answer is kept on the page, to copy.
    expect(answer.body).toContain("textarea");
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it("leaves the answer whole in inbox/, or absent", async () => {
    const text = (await readFile(join(repoRoot, "examples/ai-review-gate/replay.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((e) => e.exchange === 0 && e.role === "proposition").text as string;
    for (let round = 0; round < 6; round++) {
      const slug = `k${round}`;
      expect(
        newManualDebate(
          "This house would require a second AI model's review before merging AI-written code",
          slug,
          { cwd: join(cwd, "debates"), env },
        ).code,
      ).toBe(0);
      const dir = join(cwd, "debates", slug);
      await writeFile(
        join(dir, "debate.md"),
        (await readFile(join(dir, "debate.md"), "utf8")).replace(/^exchanges: \d+$/m, "exchanges: 1"),
      );
      expect(debate(["run", dir], { cwd, env }).code).toBe(0);
      const own = await startServe([join(cwd, "debates")]);
      const page = await http(own, "/", { headers: cookie(own) });
      const token = /data-csrf="([^"]+)"/.exec(page.body)![1]!;
      const posted = http(own, `/d/${slug}/answer`, {
        method: "POST",
        headers: { ...cookie(own), ...formHeaders },
        body: form({ csrf: token, stem: "e000-proposition", text }),
      }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, round * 8));
      own.process.kill("SIGKILL");
      await posted;
      const file = join(dir, "inbox/e000-proposition.md");
      if (await exists(file)) expect(await readFile(file, "utf8")).toBe(text);
    }
  }, 120_000);
});

describe("a refused answer from the page", () => {
  it("lists its problems worded as the run words them in the retry prompt (one formatter)", async () => {
    const dir = join(cwd, "debates/words");
    expect(
      newManualDebate("This house would review every change", "words", { cwd: join(cwd, "debates"), env })
        .code,
    ).toBe(0);
    expect(debate(["run", "debates/words"], { cwd, env }).code).toBe(0);
    // Prose without a JSON object: a problem of the whole answer, at no field.
    const text = "I agree with the motion, for reasons I will not give as JSON.";
    const page = await http(served, "/d/words/answer", {
      method: "POST",
      headers: { ...cookie(served), ...formHeaders },
      body: form({ csrf, stem: "e000-proposition", text }),
    });
    expect(page.status).toBe(422);
    expect(await exists(join(dir, "inbox/e000-proposition.md"))).toBe(false);
    // The same answer through the inbox: the run's retry prompt lists the problems.
    await writeFile(join(dir, "inbox/e000-proposition.md"), text);
    expect(debate(["run", "debates/words"], { cwd, env }).code).toBe(0);
    const retry = await readFile(join(dir, "prompts/e000-proposition-attempt2.md"), "utf8");
    const lines = retry
      .slice(retry.indexOf("for these reasons:"))
      .split("\n")
      .filter((line) => line.startsWith("- "))
      .map((line) => line.slice(2));
    expect(lines.length).toBeGreaterThan(0);
    const shown = page.body
      .replaceAll("&quot;", '"')
      .replaceAll("&#34;", '"')
      .replaceAll("&#39;", "'")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
    for (const line of lines) expect(shown).toContain(line);
  });
});
