import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, runDebateAsync } from "./workspace.js";

// An outside format (test/formats/toy, registered by the config file in test/formats) is first-class
// in the faces: status shows its own columns and result, never formal's; log and run count in its
// unit. Through the built binary, run from the folder whose config registers it.
const configDir = join(repoRoot, "test/formats");
let env: NodeJS.ProcessEnv;
const debate = (...args: string[]) => runDebateAsync(args, configDir, env);
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "outside-faces-"));
  // test/formats is a project like any other: its formats load once allowed, in a state folder of the test's.
  env = { ...process.env, NO_COLOR: "1", CI: "1", XDG_STATE_HOME: join(work, "state") };
  const allowed = await runDebateAsync(["allow", configDir], configDir, env);
  expect(allowed.code, allowed.stderr).toBe(0);
  await cp(join(configDir, "toy/example"), join(work, "toy"), { recursive: true });
  await cp(join(repoRoot, "examples/ai-review-gate"), join(work, "formal"), { recursive: true });
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("an outside format in the faces", () => {
  it("`run --exchanges 1` stops in the format's unit", async () => {
    const ran = await debate("run", join(work, "toy"), "--exchanges", "1");
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain("stopped after 1 turn as requested");
    expect(ran.stdout).not.toContain("exchange(s)");
  });

  it("`debate log` heads each call with the format's unit", async () => {
    const log = await debate("log", join(work, "toy"));
    expect(log.code, log.stderr).toBe(0);
    expect(log.stdout).toMatch(/^=== turn 1 · /m);
    expect(log.stdout).not.toMatch(/^=== exchange /m);
  });

  it("`debate status` shows formal's columns only for formal, and each format's own result", async () => {
    expect((await debate("run", join(work, "toy"))).code).toBe(0);
    const toyOnly = await debate("status", join(work, "toy"));
    expect(toyOnly.code, toyOnly.stderr).toBe(0);
    const [toyHead] = toyOnly.stdout.split("\n");
    expect(toyHead).not.toMatch(/\bPROP\b|\bOPP\b/);
    expect(toyHead).toMatch(/^DEBATE +PHASE +TURN +RESULT/);
    const json = JSON.parse((await debate("status", join(work, "toy"), "--json")).stdout)[0];
    expect(toyOnly.stdout).toContain(json.result ?? json.winner);
    expect((await debate("run", join(work, "formal"), "--exchanges", "1")).code).toBe(0);
    const both = await debate("status", join(work, "toy"), join(work, "formal"));
    const [head, ...rows] = both.stdout.split("\n");
    expect(head).toMatch(/^DEBATE +PHASE +TURN\/EXCHANGE +PROP +OPP +RESULT/);
    const toyRow = rows.find((row) => /\btoy +complete/.test(row))!;
    expect(toyRow).toBeDefined();
    // The toy has no PROP/OPP: its cells under them are empty marks, not scores.
    expect(toyRow).not.toMatch(/[+-]\d\.\d\d/);
  });
});
