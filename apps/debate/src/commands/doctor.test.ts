import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkAuth, type DoctorRow, nextStep } from "../actions/doctor.js";
import { main } from "../main.js";
import type { CliIO } from "../output.js";
import { formatDoctorReport } from "./doctor.js";

function sink(): Writable & { text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return Object.assign(stream, { text: () => chunks.join("") });
}

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "doctor-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function run(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = sink();
  const stderr = sink();
  const io: CliIO = { stdout, stderr, env, cwd: home };
  const code = await main(["node", "debate", ...args], io);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const secret = "sk-ant-api03-doctor-secret-value-0123456789";

describe("debate doctor with an empty PATH", () => {
  it("--json lists every adapter as not installed, with what to do", async () => {
    const { code, stdout } = await run(["doctor", "--json"], {
      PATH: "",
      HOME: home,
      ANTHROPIC_API_KEY: secret,
    });
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { adapters: DoctorRow[] };
    expect(report.adapters.map((r) => r.adapter)).toEqual([
      "claude",
      "codex",
      "gemini",
      "opencode",
      "copilot",
      "qwen",
      "kilo",
      "acp",
      "http",
    ]);
    for (const row of report.adapters) {
      expect(row, row.adapter).toMatchObject({ installed: false, usable: false, ready: false });
      expect(row.hint, row.adapter).toMatch(/\S/);
    }
    // The key is reported by name, never by value.
    expect(report.adapters[0]!.auth).toEqual({ status: "found", via: ["ANTHROPIC_API_KEY"] });
    expect(stdout).not.toContain(secret);
  });

  it("prints a table and one line of advice per adapter that is not ready", async () => {
    const { code, stdout } = await run(["doctor"], { PATH: "", HOME: home, ANTHROPIC_API_KEY: secret });
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ {2}adapter +installed +version +unattended$/);
    expect(lines[1]).toMatch(/^✗ claude +no +- +yes \(ANTHROPIC_API_KEY\)$/);
    expect(stdout).toContain("acp: kiro-cli not found on PATH: install Kiro CLI and run `kiro-cli login`");
    expect(stdout).toMatch(/http: cannot reach http:\/\/127\.0\.0\.1:11434\/v1/);
    expect(stdout).not.toContain(secret);
  });
});

/** A formal debate folder `home/<id>` at its start, with the given seat lines of its frontmatter. */
async function formalDebate(id: string, seatLines: string[]): Promise<string> {
  const dir = join(home, id);
  await mkdir(dir);
  const frontmatter = [
    `debate_id: ${id}`,
    "format: formal",
    "exchanges: 1",
    "current_exchange: 0",
    "current_phase: awaiting_arguments",
    ...seatLines,
    "cumulative_scores:",
    "  proposition: { total: 0, count: 0 }",
    "  opposition: { total: 0, count: 0 }",
  ];
  await writeFile(
    join(dir, "debate.md"),
    ["---", ...frontmatter, "---", "", "# Motion", "", "This house would test.", ""].join("\n"),
  );
  return dir;
}

describe("debate doctor <folder>", () => {
  let server: Server;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  it("checks each seat and exits 1 naming the seats that are not ready", async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ data: [{ id: "qwen3:8b" }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const dir = await formalDebate("d", [
      "seats:",
      `  proposition: { adapter: http, base_url: "${base}", model: "qwen3:8b" }`,
      `  opposition: { adapter: http, base_url: "${base}", model: "qwen3:8b" }`,
      "  judge: { adapter: claude }",
    ]);
    const { code, stdout, stderr } = await run(["doctor", dir, "--json"], { PATH: "", HOME: home });
    expect(code).toBe(1);
    expect(stderr).toBe("debate: seat(s) not ready: judge\n");
    const report = JSON.parse(stdout) as { seats: DoctorRow[] };
    expect(report.seats.map((s) => [s.seat, s.adapter, s.ready])).toEqual([
      ["proposition", "http", true],
      ["opposition", "http", true],
      ["judge", "claude", false],
    ]);
  });

  it("checks the seats the format calls: each judge of a panel and its fallback, which `seats:` does not hold", async () => {
    const dir = await formalDebate("panel", [
      "seats:",
      "  proposition: { adapter: manual }",
      "  opposition: { adapter: manual }",
      "judges:",
      "  panel: [{ adapter: manual }, { adapter: claude }]",
      "  fallback: { adapter: codex }",
    ]);
    const { code, stdout, stderr } = await run(["doctor", dir, "--json"], { PATH: "", HOME: home });
    expect(stderr).toBe("debate: seat(s) not ready: judge_2, judge_fallback\n");
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { seats: DoctorRow[] };
    expect(report.seats.map((s) => [s.seat, s.adapter, s.ready])).toEqual([
      ["proposition", "manual", true],
      ["opposition", "manual", true],
      ["judge", "manual", true],
      ["judge_2", "claude", false],
      ["judge_fallback", "codex", false],
    ]);
  });

  it("fails with exit 2 naming the folder when it is not a debate", async () => {
    const { code, stderr } = await run(["doctor", join(home, "nope")], { PATH: "", HOME: home });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^debate: .*nope/);
  });
});

describe("checkAuth", () => {
  it("finds credential files under HOME and shows them with ~", async () => {
    await mkdir(join(home, ".codex"));
    await writeFile(join(home, ".codex", "auth.json"), "{}");
    expect(checkAuth("codex", { HOME: home })).toEqual({ status: "found", via: ["~/.codex/auth.json"] });
    expect(checkAuth("codex", { HOME: home, CODEX_HOME: join(home, "elsewhere") })).toMatchObject({
      status: "missing",
    });
  });

  it("says missing with a fix, unknown for copilot and for adapters without a login of ours", () => {
    expect(checkAuth("gemini", { HOME: home })).toEqual({
      status: "missing",
      via: [],
      fix: "set GEMINI_API_KEY, or run `gemini` once and log in with Google",
    });
    expect(checkAuth("copilot", { HOME: home }).status).toBe("unknown");
    expect(checkAuth("copilot", { HOME: home, GH_TOKEN: "x" })).toEqual({
      status: "found",
      via: ["GH_TOKEN"],
    });
    expect(checkAuth("acp", { HOME: home })).toEqual({ status: "unknown", via: [] });
  });
});

describe("formatDoctorReport", () => {
  const row = (over: Partial<DoctorRow>): DoctorRow => ({
    adapter: "codex",
    installed: true,
    usable: true,
    version: "0.169.0",
    auth: { status: "found", via: ["OPENAI_API_KEY"] },
    ready: true,
    ...over,
  });

  it("gives advice only where something is to be done", () => {
    expect(nextStep(row({}))).toBeUndefined();
    expect(nextStep(row({ installed: false, usable: false, hint: "install it" }))).toBe("install it");
    expect(nextStep(row({ auth: { status: "missing", via: [], fix: "log in" }, hint: "x" }))).toBe("log in");
    expect(formatDoctorReport([row({})])).toBe(
      "  adapter               installed  version     unattended\n✓ codex                 yes        0.169.0     yes (OPENAI_API_KEY)\n",
    );
  });
});
