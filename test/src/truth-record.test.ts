import { readFile, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, newcomer, newManualDebate, recordedAnswer } from "./newcomer.js";

// What a person meets while answering every seat of a blind-judged formal debate by hand, through
// the built binary on a real folder: the judge's problems in the judge's own labels, the waiting
// seats, the rejections on record, and the report's account of it.
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("truth-record-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const run = () => debate(["run", "t"], { cwd, env });
const status = () =>
  JSON.parse(debate(["status", "t", "--json"], { cwd, env }).stdout)[0] as {
    activity?: string;
    last_error?: string;
  };
const inbox = (stem: string) => join(cwd, "t/inbox", `${stem}.md`);

/** A judge's answer in the labels its prompt gave: each real id's prefix swapped for its side's label. */
function labelled(text: string, labels: { prop: string; opp: string }): string {
  return text.replace(
    /\b(prop|opp)_(\d{3}[a-c])\b/g,
    (_, side: "prop" | "opp", rest) => `${labels[side]}_${rest}`,
  );
}

/** The lines under `--- rejected ---` in `debate log`'s text (up to the next entry). */
function rejectedBlocks(log: string): string {
  return [...log.matchAll(/--- rejected ---\n([\s\S]*?)(?=\n===|$)/g)].map((m) => m[1]).join("\n");
}

describe("a blind-judged debate answered by hand", () => {
  it("tells every message in the judge's labels, names every seat waited on, and keeps each rejection on record", async () => {
    expect(newManualDebate("This house would write tests first", "t", { cwd, env }).code).toBe(0);
    const file = join(cwd, "t/debate.md");
    await writeFile(file, (await readFile(file, "utf8")).replace(/^exchanges: \d+$/m, "exchanges: 1"));

    // Both sides wait: the run names both.
    const first = run();
    expect(first.code, first.stderr).toBe(0);
    const waitingLine = first.stdout.split("\n").find((l) => l.startsWith("waiting:"))!;
    expect(waitingLine).toContain("inbox/e000-proposition.md");
    expect(waitingLine).toContain("inbox/e000-opposition.md");

    // The proposition's answer is rejected, then fixed in place and taken.
    await writeFile(inbox("e000-proposition"), "I think the motion is right.\n");
    await writeFile(inbox("e000-opposition"), await recordedAnswer(0, "opposition"));
    expect(run().stderr).toContain("answer rejected");
    await writeFile(inbox("e000-proposition"), await recordedAnswer(0, "proposition"));
    const later = new Date(Date.now() + 2000);
    await utimes(inbox("e000-proposition"), later, later);
    expect(run().stderr).toContain("committed exchange 0/1 arguments");
    // The proposition's retry prompt was answered by the fixed first file: only the judge is waited on.
    expect(status().activity).toBe("waiting for inbox/e000-judge.md");

    // The judge's prompt names no side's id prefix.
    const prompt = await readFile(join(cwd, "t/prompts/e000-judge.md"), "utf8");
    expect(prompt).not.toMatch(/\b(prop|opp)_/);
    const who = /Debater ([AB]) argues for the motion, Debater ([AB]) against it/.exec(prompt)!;
    const labels = { prop: who[1]!, opp: who[2]! };

    // One id the judge made up, so one of its arguments is missing: told in the judge's labels.
    const good = labelled(await recordedAnswer(0, "judge"), labels);
    await writeFile(inbox("e000-judge"), good.replace(`"${labels.opp}_000c"`, `"${labels.opp}_000x"`));
    const rejected = run();
    expect(rejected.stderr).toContain(`found "${labels.opp}_000x"`);
    expect(rejected.stderr).toContain(`missing ${labels.opp}_000c`);
    expect(rejected.stderr).not.toMatch(/\b(prop|opp)_/);
    const last = status().last_error ?? "";
    expect(last).toMatch(/^judge: 2 problems/);
    expect(last).not.toMatch(/\b(prop|opp)_/);
    const log = debate(["log", "t"], { cwd, env }).stdout;
    expect(rejectedBlocks(log)).toContain(`${labels.opp}_000x`);
    expect(rejectedBlocks(log)).not.toMatch(/\b(prop|opp)_/);
    expect(log).toMatch(/=== exchange 0 · awaiting_judgment · judge · attempt 1 · manual · rejected · /);

    // A score out of range that breaks the sum: both problems in one attempt.
    const scores = JSON.parse(good) as { scores: Array<{ score: number }> };
    scores.scores[0]!.score = 1.5;
    await writeFile(inbox("e000-judge-attempt2"), JSON.stringify(scores));
    const twice = run();
    expect(twice.stderr).toMatch(/answer rejected, asking again \(attempt 3\): 2 problems/);
    expect(twice.stderr).toContain("JUDGMENT_NOT_ZERO_SUM");

    await writeFile(inbox("e000-judge-attempt3"), good);
    const done = run();
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain("committed exchange 0/1 judgment");

    // The ledger, status and the report count the rejections.
    const ledger = JSON.parse(await readFile(join(cwd, "t/.debate/ledger.json"), "utf8")) as {
      calls: Array<{ role: string; status: string }>;
      seats: Record<string, { rejected_calls?: number }>;
    };
    expect(ledger.calls.filter((c) => c.role === "judge").map((c) => c.status)).toEqual([
      "rejected",
      "rejected",
      "ok",
    ]);
    expect(ledger.seats.judge?.rejected_calls).toBe(2);
    expect(ledger.seats.proposition?.rejected_calls).toBe(1);
    expect(debate(["status", "t"], { cwd, env }).stdout).toMatch(/^judge\s.*2 rejected/m);

    const report = debate(["report", "t"], { cwd, env });
    expect(report.code, report.stderr).toBe(0);
    const md = await readFile(join(cwd, "t/report.md"), "utf8");
    expect(md).toMatch(/\| Seat \| Adapter \/ model \| Calls \| Failed \| Rejected \|/);
    expect(md).toMatch(/\| judge \| manual \| 3 \| 0 \| 2 \|/);
    expect(md).toContain("the judge seat's answer was rejected 2 time(s)");
  });
});

describe("the report of a debate", () => {
  it("says what decided it with the winner's points only, lists each exchange as given, and ranks without repeating its heading", async () => {
    const md = await readFile(join(cwd, "t/report.md"), "utf8");
    // The recorded judgment puts the proposition ahead.
    expect(md).toContain("the proposition wins");
    const decided = md.split("\n").find((l) => l.startsWith("Decided by"))!;
    expect(decided).toMatch(/^Decided by the proposition's strongest arguments: prop_000a/);
    expect(decided).not.toContain("opp_");
    const order = md.split("## The debate, in order")[1]!;
    expect(order.indexOf("prop_000a")).toBeGreaterThan(-1);
    expect(order.indexOf("prop_000a")).toBeLessThan(order.indexOf("opp_000a"));
    const ranked = md.split("## Strongest arguments")[1]!.split("## Turning points")[0]!;
    expect(ranked).not.toContain("current score");
    expect(ranked).toMatch(/— scored 0\.20 in exchange 0/);
  });
});
