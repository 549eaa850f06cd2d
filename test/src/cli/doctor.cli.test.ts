// `debate doctor` with a PATH holding the real pinned CLIs: every one is found with its pinned
// version, and credentials are reported by variable name only.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
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
    // One row per pinned CLI, then acp and http.
    expect(table).toHaveLength(Object.keys(pinnedClis).length + 2);
    for (const line of table) expect(line).toMatch(/^✗ \S+ +no +- /);
  });

  test("with a folder: each seat's tools, isolation and effective endpoint; no key value anywhere", () => {
    const fresh = createFreshHome("doctor");
    const secret = "sk-ant-api03-doctor-seat-secret-0123456789";
    const debate = join(fresh.cwd, "d");
    mkdirSync(join(debate, "repo"), { recursive: true });
    writeFileSync(
      join(debate, "debate.md"),
      [
        "---",
        "debate_id: d",
        "format: formal",
        "exchanges: 1",
        "current_exchange: 0",
        "current_phase: awaiting_arguments",
        "seats:",
        "  proposition: { adapter: claude, base_url: 'http://127.0.0.1:9/v1', api_key_env: SEAT_KEY }",
        "  opposition: { adapter: gemini, tools: read, workspace: repo, isolation: 'off' }",
        "  judge: { adapter: codex, tools: read, workspace: repo }",
        "---",
        "",
        "# Motion",
        "",
        "This house would check its seats.",
        "",
      ].join("\n"),
    );
    const path = [
      ...clis.map((cli) => dirname(cliBinPath(cli))),
      dirname(process.execPath),
      "/usr/bin",
      "/bin",
    ];
    const env = {
      PATH: path.join(":"),
      HOME: fresh.home,
      TMPDIR: fresh.tmp,
      SEAT_KEY: secret,
      ANTHROPIC_BASE_URL: "http://127.0.0.1:7/",
    };
    const json = spawnSync(process.execPath, [bin, "doctor", debate, "--json"], {
      encoding: "utf8",
      env,
      timeout: 120_000,
    });
    const text = spawnSync(process.execPath, [bin, "doctor", debate], {
      encoding: "utf8",
      env,
      timeout: 120_000,
    });
    fresh.remove();
    expect(json.stdout + json.stderr + text.stdout + text.stderr).not.toContain(secret);
    const seats = JSON.parse(json.stdout).seats as { seat: string; safety?: Record<string, string> }[];
    expect(seats.find((r) => r.seat === "proposition")).toMatchObject({
      auth: { status: "found", via: ["SEAT_KEY"] },
    });
    expect(seats.find((r) => r.seat === "proposition")?.safety).toMatchObject({
      tools: "none",
      isolation: "on",
      endpoint: "http://127.0.0.1:9/v1",
    });
    expect(seats.find((r) => r.seat === "opposition")?.safety).toMatchObject({
      tools: "read",
      workspace: "repo",
      isolation: "off",
    });
    expect(seats.find((r) => r.seat === "judge")).toMatchObject({ ready: false, safety: { tools: "read" } });
    expect(seats.find((r) => r.seat === "judge")?.safety?.unavailable).toContain("no read-only file tools");
    expect(text.stdout).toContain(
      "proposition (claude)\n  tools      none (safe: cannot act on the machine)",
    );
    expect(text.stdout).toContain("  endpoint   http://127.0.0.1:9/v1");
    expect(text.stdout).toContain("opposition (gemini)\n  tools      read only, inside repo");
    expect(text.stdout).toContain(
      "judge (codex)\n  tools      read requested: unavailable (codex has no read-only file tools",
    );
    expect(text.stdout).toContain("isolation  off — kept away: nothing");
  });
});
