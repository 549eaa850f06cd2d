import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ActionContext } from "./context.js";
import { createDebate } from "./create.js";
import { debateStatuses } from "./status.js";

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
});
