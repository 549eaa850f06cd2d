import { spawnSync } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readDebateFolder } from "@debatekit/files";
import { buildReport } from "@debatekit/report";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

// The crossfire report's ranking against its own verdict, on real runs of the shipped examples.
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "report-crossfire-"));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe.each(["crossfire-grpc", "crossfire-panel"])("the report of %s after its run", (example) => {
  it("never lists among the weakest a point the verdict names as one of the winner's decisive points", async () => {
    const dir = join(work, example);
    await cp(join(repoRoot, "examples", example), dir, { recursive: true });
    const ran = spawnSync(process.execPath, [join(repoRoot, "apps/debate/dist/bin.js"), "run", dir], {
      env: { ...process.env, CI: "1" },
    });
    expect(ran.status, String(ran.stderr)).toBe(0);
    const read = await readDebateFolder(dir);
    if (!read.ok) throw new Error(read.errors[0]!.message);
    const body = buildReport({ state: read.value.state }).body!;
    const winner = body.verdict.winner!;
    const cited = body.verdict.details.find((d) => d.label === "Cited points")!.text.split(", ");
    const sideOf = new Map(body.graph.nodes.map((n) => [n.id, n.side]));
    const decisive = cited.filter((id) => sideOf.get(id) === winner);
    expect(decisive.length).toBeGreaterThan(0);
    expect(body.weakest.length).toBeGreaterThan(0);
    expect(body.weakest.map((a) => a.id).filter((id) => decisive.includes(id))).toEqual([]);
  });
});
