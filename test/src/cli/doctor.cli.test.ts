// `debate doctor` with a PATH holding the real pinned CLIs: every one is found with its pinned
// version, and credentials are reported by variable name only.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { createFreshHome } from "./harness.js";
import { cliBinPath, pinnedClis, repoRoot } from "./install-clis.mjs";

const bin = join(repoRoot, "apps", "debate", "dist", "bin.js");
const clis = Object.keys(pinnedClis) as (keyof typeof pinnedClis)[];

describe("debate doctor with the pinned CLIs on PATH", () => {
  test("finds each CLI with its pinned version; a key counts as unattended, by name only", () => {
    const fresh = createFreshHome("doctor");
    const secret = "sk-ant-api03-doctor-cli-secret-0123456789";
    const path = [
      ...clis.map((cli) => dirname(cliBinPath(cli))),
      dirname(process.execPath),
      "/usr/bin",
      "/bin",
    ].join(":");
    const result = spawnSync(process.execPath, [bin, "doctor", "--json"], {
      encoding: "utf8",
      env: {
        PATH: path,
        HOME: fresh.home,
        TMPDIR: fresh.tmp,
        ANTHROPIC_API_KEY: secret,
        OPENAI_API_KEY: "sk-dummy-openai-0123456789",
      },
      timeout: 120_000,
    });
    fresh.remove();
    expect(result.status).toBe(0);
    expect(result.stdout).not.toContain(secret);
    const rows = JSON.parse(result.stdout).adapters as {
      adapter: string;
      installed: boolean;
      version?: string;
      ready: boolean;
      auth: { status: string; via: string[] };
    }[];
    for (const cli of clis) {
      const row = rows.find((r) => r.adapter === cli)!;
      expect(row, cli).toMatchObject({ installed: true, version: pinnedClis[cli].version });
    }
    expect(rows.find((r) => r.adapter === "claude")).toMatchObject({
      ready: true,
      auth: { status: "found", via: ["ANTHROPIC_API_KEY"] },
    });
    expect(rows.find((r) => r.adapter === "codex")).toMatchObject({
      ready: true,
      auth: { via: ["OPENAI_API_KEY"] },
    });
    expect(rows.find((r) => r.adapter === "gemini")).toMatchObject({
      ready: false,
      auth: { status: "missing" },
    });
    // No Kiro CLI exists on npm: the default acp agent is reported missing, with how to get it.
    expect(rows.find((r) => r.adapter === "acp")).toMatchObject({ installed: false, ready: false });
  });

  test("with an empty PATH nothing is installed and the exit code is still 0", () => {
    const fresh = createFreshHome("doctor");
    const result = spawnSync(process.execPath, [bin, "doctor"], {
      encoding: "utf8",
      env: { PATH: "", HOME: fresh.home, TMPDIR: fresh.tmp },
      timeout: 60_000,
    });
    fresh.remove();
    expect(result.status).toBe(0);
    const table = result.stdout.split("\n\n")[0]!.split("\n").slice(1);
    expect(table).toHaveLength(7);
    for (const line of table) expect(line).toMatch(/^✗ \S+ +no +- /);
  });
});
