import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, newcomer } from "./newcomer.js";

// `debate status` on a tournament folder shows the tournament's debates and says what shows the
// tournament itself, instead of "no debates found".
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("status-tournament-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("debate status on a tournament folder", () => {
  it("lists its debates, exit 0, and names `debate tournament status`", () => {
    expect(debate(["example", "tournament-replay", "tr"], { cwd, env }).code).toBe(0);
    const made = debate(
      [
        "tournament",
        "new",
        "t",
        "--motions",
        "tr/motions.jsonl",
        "--seats",
        "replay:alice,replay:bob,replay:carol",
      ].concat(["--judges", "replay", "--format", "crossfire", "--rounds", "1", "--replay", "tr/recordings"]),
      { cwd, env },
    );
    expect(made.code, made.stderr).toBe(0);
    const status = debate(["status", "t"], { cwd, env });
    expect(status.code, status.stderr).toBe(0);
    const rows = status.stdout.split("\n").filter((l) => l.startsWith("t/debates/"));
    expect(rows).toHaveLength(12);
    expect(status.stderr).toContain("t is a tournament folder");
    expect(status.stderr).toContain("`debate tournament status t`");
    const json = debate(["status", "t", "--json"], { cwd, env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toHaveLength(12);
  });
});
