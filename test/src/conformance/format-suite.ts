import { type ChildProcess, spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type AnyFormat, checkFormat, findFormat } from "@debatekit/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { until } from "../watch-helpers.js";
import { type DebateRun, repoRoot, runDebateAsync } from "../workspace.js";
import {
  exited,
  firstRequest,
  journaledKeys,
  readReplayLog,
  snapshot,
  startRun,
  tempFiles,
} from "./crash.js";

// The conformance suite every format runs, as unstorage runs testDriver for every driver: through the
// built `debate` binary, in real temp folders, with replay seats. A new format proves it plugs into
// every command by passing it, not by a reviewer's reading.

const bin = join(repoRoot, "apps/debate/dist/bin.js");

/** A format under test: where its commands run and what it needs to run offline. */
export interface FormatCase {
  /** The registry name (`--format`, debate.md's `format`). */
  name: string;
  /** The folder every command runs in: for an outside format, the one whose config file registers it. */
  cwd: string;
  /** A folder with debate.md and replay.jsonl: a debate that runs to the end offline. */
  example: string;
  /** An outside format's module, read by this suite for what it offers (reset, tournament). */
  module?: string;
  /** The `debate` arguments that create a folder of the format with replay seats (the suite adds `--dir` and `--slug`). */
  create: string[];
  /** A hand edit of a committed file of the finished example, and the `file:field` and code it must be refused with. */
  tamper: { file: string; from: string; to: string; field: string; code: string };
  /** `debate_new`'s arguments over MCP (replay seats, the example's length): the example's replay.jsonl answers it. */
  mcp: Record<string, unknown>;
  /** Extra `tournament new` arguments (the example's length), for a format that offers tournaments. */
  tournament?: string[];
}

/** The conformance file of an outside format's folder (`conformance.json`): paths relative to it. */
interface ConformanceFile {
  example: string;
  create: string[];
  tamper: FormatCase["tamper"];
  mcp: Record<string, unknown>;
  tournament?: string[];
}

/** The case of an outside format folder, registered by the config in `configDir`, from its conformance.json. */
export async function outsideCase(configDir: string, folder: string): Promise<FormatCase> {
  const dir = join(configDir, folder);
  const file = JSON.parse(await readFile(join(dir, "conformance.json"), "utf8")) as ConformanceFile;
  const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { main?: string };
  const module = join(dir, manifest.main ?? "index.mjs");
  const name = (await formatOfModule(module)).name;
  return { ...file, name, cwd: configDir, example: join(dir, file.example), module };
}

/** The format an outside module exports (default, else `format`), checked like the CLI checks it. */
async function formatOfModule(module: string): Promise<AnyFormat> {
  const loaded = (await import(pathToFileURL(module).href)) as { default?: unknown; format?: unknown };
  const checked = checkFormat(loaded.default ?? loaded.format);
  if (!checked.ok) throw new Error(`${module}: ${checked.errors.map((e) => e.message).join("; ")}`);
  return checked.value;
}

/** Runs the built binary in the case's folder and waits for it. */
function debate(c: FormatCase, args: string[]): Promise<DebateRun> {
  return runDebateAsync(args, c.cwd, { ...process.env, NO_COLOR: "1", CI: "1" });
}

/** The seats debate.md names (its frontmatter's `seats` keys). */
async function seatRoles(dir: string): Promise<string[]> {
  const text = await readFile(join(dir, "debate.md"), "utf8");
  const frontmatter = parseYaml(text.split(/^---$/m)[1] ?? "") as { seats?: Record<string, unknown> };
  return Object.keys(frontmatter.seats ?? {});
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Runs the conformance suite for one format: one `it` per step, so a failing step names itself. */
export function testFormat(c: FormatCase): void {
  describe(`format conformance: ${c.name}`, () => {
    let work: string;
    let format: AnyFormat;
    let reference: Record<string, string> | undefined;
    let copies = 0;
    const children: ChildProcess[] = [];

    beforeAll(async () => {
      work = await mkdtemp(join(tmpdir(), `conformance-${c.name}-`));
      format = c.module ? await formatOfModule(c.module) : findFormat(c.name)!;
      expect(format, `${c.name} is not a registered format`).toBeDefined();
    });
    afterAll(async () => {
      for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
      await rm(work, { recursive: true, force: true });
    });

    /** A fresh copy of the example under the work folder. */
    const copyExample = async (label: string) => {
      const dir = join(work, `${label}-${++copies}`);
      await cp(c.example, dir, { recursive: true });
      return dir;
    };
    /** The example run to its end: what every finished copy must match. */
    const finished = async (label: string) => {
      const dir = await copyExample(label);
      const ran = await debate(c, ["run", dir]);
      expect(ran.code, ran.stderr).toBe(0);
      return dir;
    };
    const statusRow = async (dir: string) => {
      const ran = await debate(c, ["status", dir, "--json"]);
      expect(ran.code, ran.stderr).toBe(0);
      return (JSON.parse(ran.stdout) as Array<Record<string, unknown>>)[0]!;
    };
    const expected = async () => {
      reference ??= await snapshot(await finished("reference"));
      return reference;
    };

    it("creates a folder of the format with replay seats", async () => {
      const ran = await debate(c, [...c.create, "--dir", work, "--slug", "made-by-new"]);
      expect(ran.code, ran.stderr).toBe(0);
      const text = await readFile(join(work, "made-by-new", "debate.md"), "utf8");
      expect(text).toMatch(new RegExp(`^format: ${c.name}$`, "m"));
      expect((await statusRow(join(work, "made-by-new"))).format).toBe(c.name);
    });

    it("runs a copy of its example to the end", async () => {
      const dir = await finished("run");
      expect((await statusRow(dir)).phase).toBe("complete");
      // formal's derived index of its argument files is formal's alone.
      if (!format.folders.includes("arguments"))
        expect(await exists(join(dir, ".debate/argument-index.json"))).toBe(false);
      expect(await snapshot(dir)).toEqual(await expected());
    });

    it("says who won as data in `status --json` (absent for a format that picks no side)", async () => {
      const row = await statusRow(await finished("status"));
      if (format.tournament)
        expect([format.tournament.first, format.tournament.second, "tie"]).toContain(row.winner);
      else expect(row.winner).toBeUndefined();
    });

    it("writes report.md and report.html, and says a debate has not started when it has not", async () => {
      const done = await finished("report");
      const ran = await debate(c, ["report", done]);
      expect(ran.code, ran.stderr).toBe(0);
      expect(await exists(join(done, "report.md"))).toBe(true);
      expect(await exists(join(done, "report.html"))).toBe(true);
      const fresh = await copyExample("report-fresh");
      expect((await debate(c, ["report", fresh])).code).toBe(0);
      const text = await readFile(join(fresh, "report.md"), "utf8");
      expect(text).toMatch(/not started/i);
      expect(text).not.toMatch(/\b(tied|wins)\b/i);
    });

    it("resets to its start and a re-run gives the same committed files (or refuses, saying why)", async () => {
      const dir = await finished("reset");
      const reset = format.reset;
      if (!reset.supported) {
        const ran = await debate(c, ["reset", dir]);
        expect(ran.code).not.toBe(0);
        expect(ran.stderr).toContain(reset.reason);
        return;
      }
      const ran = await debate(c, ["reset", dir, "--to", String(reset.start)]);
      expect(ran.code, ran.stderr).toBe(0);
      const row = await statusRow(dir);
      // Back at its start: nothing done (a count, whatever number the format starts at).
      expect(row.exchange).toBe(0);
      const again = await debate(c, ["run", dir]);
      expect(again.code, again.stderr).toBe(0);
      expect(await snapshot(dir)).toEqual(await expected());
    });

    it("is advanced by `debate watch` when a paused folder is edited", async () => {
      const parent = join(work, "watched");
      await mkdir(parent);
      const dir = join(parent, "edited");
      await cp(c.example, dir, { recursive: true });
      const file = join(dir, "debate.md");
      const text = await readFile(file, "utf8");
      await writeFile(file, text.replace(/^---\n/, "---\npaused: true\n"));
      const child = spawn(process.execPath, [bin, "watch", parent, "--json"], {
        cwd: c.cwd,
        env: { ...process.env, NO_COLOR: "1", CI: "1" },
      });
      children.push(child);
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      const events = () =>
        out
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => JSON.parse(l) as { type: string; dir?: string });
      await until("the watcher ready", () => events().some((e) => e.type === "ready"));
      expect(events().some((e) => e.type === "step_committed")).toBe(false);
      await writeFile(file, (await readFile(file, "utf8")).replace("paused: true\n", "paused: false\n"));
      await until("a step committed after the edit", () =>
        events().some((e) => e.type === "step_committed" && e.dir === dir),
      );
      child.kill("SIGTERM");
      expect((await exited(child)).code).toBe(0);
    });

    it("survives kill -9 mid-run: a resumed run ends the same and never asks a journaled step again", async () => {
      const want = await expected();
      const dir = await copyExample("crash");
      // Each recorded answer takes a moment, so a kill lands mid-run however fast the machine is.
      const replay = join(dir, "replay.jsonl");
      const recorded = await readFile(replay, "utf8");
      const entries = recorded.split("\n").filter((l) => l.trim() !== "");
      await writeFile(
        replay,
        `${entries.map((l) => JSON.stringify({ ...JSON.parse(l), delay_ms: 150 })).join("\n")}\n`,
      );
      const log = join(work, "crash.log");
      let kills = 0;
      for (let run = 0; ; run++) {
        const before = await journaledKeys(dir);
        const child = startRun(dir, log, c.cwd);
        let timer: NodeJS.Timeout | undefined;
        if (run < 4 && (await firstRequest(log, child)))
          timer = setTimeout(() => child.kill("SIGKILL"), 50 + Math.random() * 400);
        const end = await exited(child);
        clearTimeout(timer);
        for (const r of (await readReplayLog(log)).filter((r) => r.pid === child.pid)) {
          const key = `${r.exchange}/${r.role}/${r.attempt}`;
          expect(before.has(key), `${key} was asked again by pid ${r.pid}`).toBe(false);
        }
        if (end.signal === "SIGKILL") {
          kills++;
          continue;
        }
        expect(end.code).toBe(0);
        break;
      }
      expect(kills).toBeGreaterThan(0);
      await writeFile(replay, recorded);
      expect(await snapshot(dir)).toEqual(want);
      expect(await tempFiles(dir)).toEqual([]);
    });

    /** A finished copy of the example with the case's hand edit in a committed file. */
    const tampered = async (label: string) => {
      const dir = await finished(label);
      const file = join(dir, c.tamper.file);
      const text = await readFile(file, "utf8");
      expect(text).toContain(c.tamper.from);
      await writeFile(file, text.replace(c.tamper.from, c.tamper.to));
      return dir;
    };
    for (const command of ["run", "status"])
      it(`refuses a hand-edited committed file in \`${command}\`, naming the file, the field and the code`, async () => {
        const ran = await debate(c, [command, await tampered(`tamper-${command}`)]);
        expect(ran.code, `${command}: ${ran.stdout}${ran.stderr}`).not.toBe(0);
        expect(ran.stdout + ran.stderr).toContain(c.tamper.code);
        expect(ran.stdout + ran.stderr).toContain(c.tamper.field);
      });

    it("shows its journal with `log` and its seats with `doctor <dir>`", async () => {
      const dir = await finished("log");
      const log = await debate(c, ["log", dir]);
      expect(log.code, log.stderr).toBe(0);
      expect(log.stdout).toMatch(/^=== /m);
      const doctor = await debate(c, ["doctor", dir]);
      expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
      // Every seat the example names is listed (and ready: replay seats need nothing).
      for (const role of await seatRoles(dir)) expect(doctor.stdout).toContain(`${role} (replay)`);
    });

    it("runs over MCP: debate_new, debate_run, debate_status, debate_report", async () => {
      const debates = join(work, "mcp");
      const client = new Client({ name: "conformance", version: "0.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [bin, "mcp", "--dir", debates],
          cwd: c.cwd,
          env: { ...(process.env as Record<string, string>), NO_COLOR: "1", CI: "1" },
          stderr: "pipe",
        }),
      );
      try {
        const call = async (name: string, args: Record<string, unknown>) => {
          const result = (await client.callTool({ name, arguments: args }, CallToolResultSchema, {
            timeout: 60_000,
          })) as { isError?: boolean; content: Array<{ text?: string }> };
          expect(result.isError, result.content[0]?.text).toBeFalsy();
          return JSON.parse(result.content[0]!.text!) as Record<string, unknown>;
        };
        const made = await call("debate_new", { format: c.name, ...c.mcp, slug: "over-mcp" });
        expect(made).toMatchObject({ debate: "over-mcp", format: c.name });
        await cp(join(c.example, "replay.jsonl"), join(debates, "over-mcp", "replay.jsonl"));
        await call("debate_run", { debate: "over-mcp", until: "end" });
        expect(await call("debate_status", { debate: "over-mcp" })).toMatchObject({ phase: "complete" });
        expect(await call("debate_report", { debate: "over-mcp" })).toMatchObject({ format: c.name });
        expect(await readdir(join(debates, "over-mcp"))).toEqual(
          expect.arrayContaining(["report.md", "report.html"]),
        );
      } finally {
        await client.close();
      }
    });

    it("plays a tournament when it offers one (replay seats), or is not offered", async () => {
      const name = join(work, "tournament");
      const motions = join(work, "motions.jsonl");
      const motion = (await readFile(join(c.example, "debate.md"), "utf8")).split("# Motion\n")[1]!.trim();
      await writeFile(motions, `${JSON.stringify({ motion: motion.split("\n")[0] })}\n`);
      const recordings = join(work, "recordings");
      await mkdir(recordings);
      // Entries are keyed by exchange and role only: each match replays the example's answers.
      for (const id of ["m01-replay-a-vs-replay-b", "m01-replay-b-vs-replay-a"])
        await cp(join(c.example, "replay.jsonl"), join(recordings, `${id}.jsonl`));
      const args = ["tournament", "new", name, "--format", c.name, "--motions", motions];
      const seats = ["--seats", "replay:a,replay:b", "--judges", "replay", "--replay", recordings];
      const made = await debate(c, [...args, ...seats, ...(c.tournament ?? [])]);
      if (!format.tournament) {
        expect(made.code).not.toBe(0);
        return;
      }
      expect(made.code, made.stderr).toBe(0);
      const ran = await debate(c, ["tournament", "run", name]);
      expect(ran.code, ran.stderr).toBe(0);
      const status = await debate(c, ["tournament", "status", name]);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(/replay:a/);
    });
  });
}
