import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SeatSandbox } from "@debatekit/adapter-kit";
import { SandboxError } from "@debatekit/adapter-kit";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { copilotLaunch, copilotLoginConfig } from "./launch.js";

let root: string;
let home: string;
let sandbox: SeatSandbox;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "cp-launch-"));
  home = join(root, "home");
  mkdirSync(join(home, ".copilot"), { recursive: true });
  sandbox = { dir: join(root, "seat"), cwd: join(root, "seat", "work"), tools: "none", isolation: "on" };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

// What copilot keeps in ~/.copilot/config.json: a `//` header, then JSON (login and other state).
const userConfig = `// User settings belong in settings.json.
// This file is managed automatically.
{
  "firstLaunchAt": "2026-11-24T01:09:09.049Z",
  "lastLoggedInUser": { "host": "https://github.com", "login": "octo" },
  "loggedInUsers": [{ "host": "https://github.com", "login": "octo" }],
  "copilotTokens": { "https://github.com:octo": "gho_plaintexttoken" },
  "trustedFolders": ["/home/octo/repo"],
}
`;

describe("copilotLoginConfig", () => {
  test("keeps only the login entries of config.json (JSON with comments)", async () => {
    expect(copilotLoginConfig(userConfig)).toEqual({
      lastLoggedInUser: { host: "https://github.com", login: "octo" },
      loggedInUsers: [{ host: "https://github.com", login: "octo" }],
      copilotTokens: { "https://github.com:octo": "gho_plaintexttoken" },
    });
    expect(copilotLoginConfig('// x\n{ "firstLaunchAt": "t" }')).toBeUndefined();
    expect(copilotLoginConfig("{ broken")).toBeUndefined();
  });
});

describe("copilotLaunch", () => {
  test("tools: none offers no tool, denies shell/write/url, no built-in MCP, no update, no COPILOT_ALLOW_ALL", async () => {
    const plan = await copilotLaunch({
      sandbox,
      env: { HOME: home, COPILOT_ALLOW_ALL: "true" },
      endpoint: {},
    });
    expect(plan.args).toEqual([
      "--available-tools",
      "none",
      "--deny-tool",
      "shell",
      "write",
      "url",
      "--disallow-temp-dir",
      "--disable-builtin-mcps",
      "--no-auto-update",
      "--no-custom-instructions",
      "--disable-client-telemetry",
    ]);
    expect(plan.env).toHaveProperty("COPILOT_ALLOW_ALL", undefined);
    expect(plan.env).toMatchObject({ COPILOT_AUTO_UPDATE: "false" });
  });

  test("tools: read offers only view, glob and rg", async () => {
    const plan = await copilotLaunch({
      sandbox: { ...sandbox, tools: "read", workspace: root, cwd: root },
      env: { HOME: home },
      endpoint: {},
    });
    expect(plan.args!.slice(0, 4)).toEqual(["--available-tools", "view", "glob", "rg"]);
  });

  test("isolation: a private COPILOT_HOME holding only the login, the user's instruction dirs dropped", async () => {
    writeFileSync(join(home, ".copilot", "config.json"), userConfig);
    const plan = await copilotLaunch({
      sandbox,
      env: { HOME: home, COPILOT_CUSTOM_INSTRUCTIONS_DIRS: "/x" },
      endpoint: {},
    });
    expect(plan.env).toMatchObject({ COPILOT_HOME: join(sandbox.dir, "copilot-home") });
    expect(plan.env).toHaveProperty("COPILOT_CUSTOM_INSTRUCTIONS_DIRS", undefined);
    expect(Object.keys(plan.files!)).toEqual(["copilot-home/config.json"]);
    const written = JSON.parse(plan.files!["copilot-home/config.json"]!);
    expect(written).not.toHaveProperty("trustedFolders");
    expect(written.lastLoggedInUser).toEqual({ host: "https://github.com", login: "octo" });
  });

  test("COPILOT_HOME of the caller is where the login is read from; no login, no file", async () => {
    const other = join(root, "elsewhere");
    mkdirSync(other);
    writeFileSync(join(other, "config.json"), userConfig);
    const plan = await copilotLaunch({ sandbox, env: { HOME: home, COPILOT_HOME: other }, endpoint: {} });
    expect(Object.keys(plan.files!)).toEqual(["copilot-home/config.json"]);
    expect((await copilotLaunch({ sandbox, env: { HOME: home }, endpoint: {} })).files).toEqual({});
  });

  test("isolation off: the user's COPILOT_HOME and instructions, still no tools", async () => {
    const plan = await copilotLaunch({
      sandbox: { ...sandbox, isolation: "off" },
      env: { HOME: home },
      endpoint: {},
    });
    expect(plan.args).toContain("none");
    expect(plan.args).not.toContain("--no-custom-instructions");
    expect(plan.env).not.toHaveProperty("COPILOT_HOME");
  });

  test("the seat's endpoint becomes copilot's provider variables", async () => {
    const plan = await copilotLaunch({
      sandbox,
      env: { HOME: home },
      endpoint: {
        baseUrl: "https://models.example.test/v1",
        apiKey: { name: "MY_KEY", value: "sk-1234567890" },
      },
    });
    expect(plan.env).toMatchObject({
      COPILOT_PROVIDER_BASE_URL: "https://models.example.test/v1",
      COPILOT_PROVIDER_API_KEY: "sk-1234567890",
    });
  });
});

test("a loopback model server nobody listens on makes the seat unavailable before copilot starts", async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await expect(
    copilotLaunch({
      sandbox,
      env: { HOME: home, COPILOT_PROVIDER_BASE_URL: `http://127.0.0.1:${port}/v1` },
      endpoint: {},
    }),
  ).rejects.toThrow(SandboxError);
});
