import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ActionContext } from "./context.js";
import { createDebate } from "./create.js";
import { runDebateAction } from "./run.js";
import { debateStatus, debateStatuses } from "./status.js";

const examples = join(dirname(fileURLToPath(import.meta.url)), "../../../../examples");

/**
 * The crossfire panel example with two judges who disagree (no swap): its verdict is a tie. Its
 * headline says so in words ("a tie: ..."), never as "the <side> wins".
 */
async function splitPanel(dir: string): Promise<void> {
  await cp(join(examples, "crossfire-panel"), dir, { recursive: true });
  const md = await readFile(join(dir, "debate.md"), "utf8");
  await writeFile(
    join(dir, "debate.md"),
    md.replace("    - { adapter: replay, file: replay.jsonl }\n  swap: true\n", ""),
  );
  const kept = (await readFile(join(dir, "replay.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { role: string; text: string })
    .filter((e) => !/^judge(_2)?_swapped$|^judge_3/.test(e.role))
    .map((e) => (e.role === "judge_2" ? { ...e, text: e.text.replace("Debater B", "Debater A") } : e));
  await writeFile(join(dir, "replay.jsonl"), `${kept.map((e) => JSON.stringify(e)).join("\n")}\n`);
}

let work: string;
let ctx: ActionContext;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), "actions-status-"));
  ctx = { cwd: work, env: { HOME: work, XDG_CONFIG_HOME: join(work, ".config") } };
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("debateStatuses", () => {
  it("gives a row per debate under a folder, in order, and none for a folder without debates", async () => {
    for (const motion of ["This house would write tests first", "This house would pair"])
      await createDebate(ctx, {
        format: "formal",
        motion,
        seats: { proposition: "manual", opposition: "manual", judge: "manual" },
      });
    await mkdir(join(work, "debates", "notes"));
    const rows = await debateStatuses(ctx, ["debates"]);
    expect(rows.map((r) => [r.debate_id, r.format, r.phase, r.exchange, r.winner])).toEqual([
      ["pair", "formal", "awaiting_arguments", 0, undefined],
      ["write-tests-first", "formal", "awaiting_arguments", 0, undefined],
    ]);
    expect(await debateStatuses(ctx, ["debates/notes"])).toEqual([]);
  });

  it("refuses a path that is not a folder (exit 2)", async () => {
    await expect(debateStatuses(ctx, ["nowhere"])).rejects.toMatchObject({
      message: "nowhere: no such folder",
      exitCode: 2,
    });
  });

  it("gives the winner the format's standing decides: a split crossfire panel is a tie", async () => {
    const dir = join(work, "split");
    await splitPanel(dir);
    const summary = await runDebateAction(ctx, { dir });
    expect(summary.status).toBe("done");
    expect(await readFile(join(dir, "verdict.md"), "utf8")).toMatch(/^winner: tie$/m);
    const row = await debateStatus(dir);
    expect([row.phase, row.winner]).toEqual(["complete", "tie"]);
  });
});
