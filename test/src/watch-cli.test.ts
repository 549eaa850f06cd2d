import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WatchEvent } from "@debatekit/cli";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualDebate, dropAnswer, recordedAnswers, until } from "./watch-helpers.js";
import { repoRoot } from "./workspace.js";

const bin = join(repoRoot, "apps/debate/dist/bin.js");

let work: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "watch-cli-"));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await rm(work, { recursive: true, force: true });
});

/** Starts `debate watch` as a child process and collects its output. */
function startWatch(args: string[]) {
  const child = spawn(process.execPath, [bin, "watch", ...args], {
    cwd: work,
    env: { ...process.env, NO_COLOR: "1", CI: "1" },
  });
  children.push(child);
  const out = { stdout: "", stderr: "" };
  child.stdout!.on("data", (d) => (out.stdout += d));
  child.stderr!.on("data", (d) => (out.stderr += d));
  const exit = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  const events = () =>
    out.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as WatchEvent);
  return { child, out, exit, events };
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe("debate watch (the built binary, a child process)", () => {
  it("picks up a new folder, advances it from inbox answers, stops on SIGTERM mid-seat and leaves it resumable", async () => {
    const answers = await recordedAnswers();
    const watch = startWatch([".", "--json"]);
    await until("ready", () => watch.events().some((e) => e.type === "ready"));
    expect(watch.events().find((e) => e.type === "ready")).toMatchObject({ debates: 0 });

    // A folder that appears after the start; its judge waits in its seat (polls inbox/) for 2 minutes.
    const dir = await createManualDebate(work, "late", { exchanges: 2 });
    const text = await readFile(join(dir, "debate.md"), "utf8");
    await writeFile(
      join(dir, "debate.md"),
      text.replace("judge: { adapter: manual }", "judge: { adapter: manual, timeout_ms: 120000 }"),
    );
    await until("the new debate waiting for its debaters", () =>
      watch.events().some((e) => e.type === "run_finished" && e.dir === dir && e.pending?.length === 2),
    );
    const waiting = watch.events().find((e) => e.type === "run_finished" && e.dir === dir);
    expect(waiting).toMatchObject({ status: "waiting", exchange: 0, phase: "awaiting_arguments" });
    expect(watch.events().find((e) => e.type === "debate_added")).toMatchObject({ dir });

    await dropAnswer(dir, "e000-proposition", answers.get("e000-proposition")!, "write");
    await dropAnswer(dir, "e000-opposition", answers.get("e000-opposition")!, "rename");
    await until("the arguments committed", () => watch.events().some((e) => e.type === "step_committed"));
    await until("the judge asked", async () =>
      (await readdir(join(dir, "prompts"))).includes("e000-judge.md"),
    );

    // The judge's seat would poll for 2 minutes (past the test's timeout): SIGTERM aborts it.
    watch.child.kill("SIGTERM");
    expect(await watch.exit).toBe(0);
    const events = watch.events();
    expect(events.at(-1)!.type).toBe("stopped");
    expect(events.filter((e) => e.type === "step_committed")).toHaveLength(1);
    expect(events.findLast((e) => e.type === "run_finished")).toMatchObject({ dir, status: "cancelled" });
    // Every NDJSON line is one event with a type and a time.
    for (const line of watch.out.stdout.trim().split("\n")) {
      expect(JSON.parse(line)).toMatchObject({ type: expect.any(String), at: expect.any(String) });
    }
    // Resumable: no lock left behind, the committed step stays.
    expect(await exists(join(dir, ".debate/lock"))).toBe(false);
    expect(await readFile(join(dir, "debate.md"), "utf8")).toMatch(/^current_phase: awaiting_judgment$/m);

    // A second watcher (text output) resumes it: the judge's answer lands and is committed once.
    const again = startWatch([dir]);
    await until("the resumed run", () => again.out.stdout.includes("found 1 debate"));
    await dropAnswer(dir, "e000-judge", answers.get("e000-judge")!, "write");
    await until("the judgment committed", () =>
      again.out.stdout.includes("late: exchange 0 judgment committed -> exchange 1 awaiting_arguments"),
    );
    again.child.kill("SIGINT");
    expect(await again.exit).toBe(0);
    const lines = again.out.stdout.trim().split("\n");
    expect(lines.filter((l) => l.includes("committed ->"))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(/stopped; every debate resumes/);
    expect(again.out.stdout).not.toMatch(/\u001b\[/);
    expect(await exists(join(dir, ".debate/lock"))).toBe(false);
    expect(await readFile(join(dir, "debate.md"), "utf8")).toMatch(/^current_exchange: 1$/m);
  });

  it("fails with exit 2 and names a folder that does not exist", async () => {
    const watch = startWatch(["no-such-folder"]);
    expect(await watch.exit).toBe(2);
    expect(watch.out.stderr).toBe(
      "debate: no-such-folder: not a folder (expected a debate folder or a folder of debates)\n",
    );
  });
});
