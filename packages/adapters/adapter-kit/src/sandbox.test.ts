import { lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  materializePlan,
  openSeatSandbox,
  resolveSeatEnv,
  SandboxError,
  seatEndpoint,
  seatSandboxDir,
} from "./sandbox.js";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "adapter-kit-sandbox-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("seatSandboxDir", () => {
  test("stable for one debate and seat, different for another seat or debate, under TMPDIR", () => {
    const env = { TMPDIR: root };
    const a = seatSandboxDir("/d/one", "proposition", env);
    expect(seatSandboxDir("/d/one", "proposition", env)).toBe(a);
    expect(seatSandboxDir("/d/one", "opposition", env)).not.toBe(a);
    expect(seatSandboxDir("/d/two", "proposition", env)).not.toBe(a);
    expect(a.startsWith(join(root, "debatekit-seats"))).toBe(true);
  });
});

describe("openSeatSandbox", () => {
  test("an empty private work folder (0700) by default; the real workspace path with tools: read", async () => {
    const debate = join(root, "debate");
    await mkdir(join(debate, "repo"), { recursive: true });
    await symlink(join(debate, "repo"), join(debate, "repo-link"));
    const plain = await openSeatSandbox(
      { adapter: "claude" },
      { debateDir: debate, key: "judge", env: { TMPDIR: root } },
    );
    expect(plain).toMatchObject({ tools: "none", isolation: "on", cwd: join(plain.dir, "work") });
    expect((await stat(plain.dir)).mode & 0o777).toBe(0o700);
    const read = await openSeatSandbox(
      { adapter: "claude", tools: "read", workspace: "repo-link", isolation: "off" },
      { debateDir: debate, key: "judge", env: { TMPDIR: root } },
    );
    expect(read).toMatchObject({
      tools: "read",
      isolation: "off",
      cwd: join(debate, "repo"),
      workspace: join(debate, "repo"),
    });
  });

  test("tools: read without a workspace, or with a file as workspace, is refused", async () => {
    const env = { TMPDIR: root };
    await writeFile(join(root, "file.txt"), "x");
    await expect(
      openSeatSandbox({ adapter: "codex", tools: "read" }, { debateDir: root, key: "k", env }),
    ).rejects.toThrow(SandboxError);
    await expect(
      openSeatSandbox(
        { adapter: "codex", tools: "read", workspace: "file.txt" },
        { debateDir: root, key: "k", env },
      ),
    ).rejects.toThrow(/not a folder/);
  });
});

describe("materializePlan", () => {
  test("writes files 0600 and links, and removes exactly those afterwards", async () => {
    const sandbox = await openSeatSandbox(
      { adapter: "codex" },
      { debateDir: root, key: "m", env: { TMPDIR: root } },
    );
    const secret = join(root, "auth.json");
    await writeFile(secret, '{"token":"x"}');
    await writeFile(join(sandbox.dir, "sessions.log"), "kept");
    const cleanup = await materializePlan(sandbox, {
      files: { "home/config.toml": 'model = "m"\n' },
      links: { "home/auth.json": secret },
    });
    expect(await readFile(join(sandbox.dir, "home", "config.toml"), "utf8")).toBe('model = "m"\n');
    expect((await stat(join(sandbox.dir, "home", "config.toml"))).mode & 0o777).toBe(0o600);
    expect((await lstat(join(sandbox.dir, "home", "auth.json"))).isSymbolicLink()).toBe(true);
    await cleanup();
    await expect(lstat(join(sandbox.dir, "home", "config.toml"))).rejects.toThrow();
    await expect(lstat(join(sandbox.dir, "home", "auth.json"))).rejects.toThrow();
    // The user's file behind the link and what the CLI itself keeps are untouched.
    expect(await readFile(secret, "utf8")).toBe('{"token":"x"}');
    expect(await readFile(join(sandbox.dir, "sessions.log"), "utf8")).toBe("kept");
  });

  test("a path out of the private folder is refused and nothing is left written", async () => {
    const sandbox = await openSeatSandbox(
      { adapter: "codex" },
      { debateDir: root, key: "esc", env: { TMPDIR: root } },
    );
    await expect(
      materializePlan(sandbox, { files: { "ok.txt": "1", "../../escaped.txt": "2" } }),
    ).rejects.toThrow(SandboxError);
    await expect(lstat(join(sandbox.dir, "ok.txt"))).rejects.toThrow();
    await expect(lstat(join(sandbox.dir, "..", "..", "escaped.txt"))).rejects.toThrow();
  });
});

describe("resolveSeatEnv and seatEndpoint", () => {
  test("references take the caller's values; literal values stay; an unset reference is an error", () => {
    expect(resolveSeatEnv({ A: "${X}", B: "plain", C: "pre-${X}-${Y}" }, { X: "1", Y: "2" })).toEqual({
      A: "1",
      B: "plain",
      C: "pre-1-2",
    });
    expect(() => resolveSeatEnv({ A: "${MISSING}" }, {})).toThrow(/A references \$\{MISSING\}/);
  });

  test("the endpoint carries the key's value from the named variable, never from debate.md", () => {
    expect(
      seatEndpoint(
        { adapter: "claude", base_url: "http://127.0.0.1:9/v1", api_key_env: "MY_KEY" },
        { MY_KEY: "k" },
      ),
    ).toEqual({ baseUrl: "http://127.0.0.1:9/v1", apiKey: { name: "MY_KEY", value: "k" } });
    expect(seatEndpoint({ adapter: "claude" }, {})).toEqual({});
  });
});
