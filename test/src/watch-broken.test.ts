import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { WatchEvent } from "@debatekit/cli";
import { describe, expect, it } from "vitest";
import {
  committedSteps,
  createManualDebate,
  dropAnswer,
  recordedAnswers,
  until,
  useWatchSandbox,
} from "./watch-helpers.js";

const sandbox = useWatchSandbox("watch-broken-");

const ofType = <T extends WatchEvent["type"]>(events: WatchEvent[], type: T, dir?: string) =>
  events.filter(
    (e): e is Extract<WatchEvent, { type: T }> => e.type === type && (!dir || ("dir" in e && e.dir === dir)),
  );

describe("debate watch (in process): broken edits and deleted folders", () => {
  it("reports a broken debate.md (file, field), keeps the last good state, and resumes once it is fixed", async () => {
    const dir = await createManualDebate(sandbox.work, "broken", { exchanges: 2 });
    const answers = await recordedAnswers();
    const events = sandbox.events;
    const watcher = sandbox.watch();
    await watcher.ready;
    await until(
      "the first run to wait for the debaters",
      () => ofType(events, "run_finished", dir).length > 0,
    );
    const good = await readFile(join(dir, "debate.md"), "utf8");

    // 1. A value of the wrong type: the report names debate.md and the field.
    await writeFile(join(dir, "debate.md"), good.replace("exchanges: 2", "exchanges: many"));
    await until("an invalid report", () => ofType(events, "invalid", dir).length === 1);
    const schemaError = ofType(events, "invalid", dir)[0]!;
    expect(schemaError.file).toBe("debate.md");
    expect(schemaError.field).toContain("exchanges");
    expect(schemaError.code).toMatch(/^[A-Z_]+$/);
    expect(schemaError.message).toContain("exchanges");
    expect(schemaError.message.startsWith(schemaError.code)).toBe(false);
    expect(watcher.debates()[0]!.invalid?.file).toBe("debate.md");

    // 2. Answers arrive while it is broken: they are seen, but nothing is committed.
    await dropAnswer(dir, "e000-proposition", answers.get("e000-proposition")!, "rename");
    await dropAnswer(dir, "e000-opposition", answers.get("e000-opposition")!, "rename");
    await until("the answers to meet the broken file", () => ofType(events, "invalid", dir).length >= 2);
    // 3. A YAML syntax error is reported too.
    await writeFile(join(dir, "debate.md"), good.replace("seats:", "seats: [unclosed"));
    await until("the syntax error reported", () => ofType(events, "invalid", dir).length >= 3);
    expect(ofType(events, "invalid", dir).at(-1)!.file).toBe("debate.md");
    expect(committedSteps(events, dir)).toEqual([]);
    await expect(readdir(join(dir, "arguments"))).rejects.toThrow(/ENOENT/);

    // 4. Fixed: it says so, and picks the waiting answers up at once.
    await writeFile(join(dir, "debate.md"), good);
    await until("the arguments committed after the fix", () => committedSteps(events, dir).length === 1);
    expect(ofType(events, "recovered", dir)).toHaveLength(1);
    expect(committedSteps(events, dir)).toEqual(["0:awaiting_arguments"]);
    expect(watcher.debates()[0]!.invalid).toBeUndefined();
    expect(await readdir(join(dir, "arguments"))).toHaveLength(6);

    // 5. A broken file the watcher does not normally watch (an argument): found by the next run,
    // then watched until it is fixed, which resumes the debate by itself.
    await watcher.idle(); // the run that committed the arguments has found the judge missing
    const argument = join(dir, "arguments/prop_000a.md");
    const goodArgument = await readFile(argument, "utf8");
    await writeFile(argument, goodArgument.replace(/^---\n/, "---\nid: [broken\n"));
    await dropAnswer(dir, "e000-judge", answers.get("e000-judge")!, "rename");
    await until("the broken argument reported", () =>
      ofType(events, "invalid", dir).some((e) => e.file === "arguments/prop_000a.md"),
    );
    expect(committedSteps(events, dir)).toEqual(["0:awaiting_arguments"]);
    await writeFile(argument, goodArgument);
    await until(
      "the judgment committed once the argument is fixed",
      () => committedSteps(events, dir).length === 2,
    );
    expect(ofType(events, "recovered", dir)).toHaveLength(2);
    expect(
      ofType(events, "run_started", dir).some((e) => e.reasons.includes("fixed:arguments/prop_000a.md")),
    ).toBe(true);
  });

  it("survives a debate folder deleted while watched (even mid-run) and keeps advancing the others", async () => {
    const keep = await createManualDebate(sandbox.work, "keep", { exchanges: 1 });
    const doomed = await createManualDebate(sandbox.work, "doomed", { exchanges: 1 });
    // The doomed debate's judge blocks in its seat, polling inbox/, so its run is in progress when it goes.
    const text = await readFile(join(doomed, "debate.md"), "utf8");
    await writeFile(
      join(doomed, "debate.md"),
      text.replace("judge: { adapter: manual }", "judge: { adapter: manual, timeout_ms: 120000 }"),
    );
    const answers = await recordedAnswers();
    for (const role of ["proposition", "opposition"]) {
      await dropAnswer(doomed, `e000-${role}`, answers.get(`e000-${role}`)!, "rename");
    }
    const events = sandbox.events;
    const watcher = sandbox.watch();
    await watcher.ready;
    await until("the doomed debate's judge to be asked", () =>
      readdir(join(doomed, "prompts")).then(
        (n) => n.includes("e000-judge.md"),
        () => false,
      ),
    );
    expect(watcher.debates().find((d) => d.dir === doomed)?.running).toBe(true);
    await rm(doomed, { recursive: true, force: true });
    await until("the removal reported", () => ofType(events, "debate_removed", doomed).length === 1);
    // Its run was aborted rather than left polling for two minutes.
    await until("the doomed run to end", () =>
      ofType(events, "run_finished", doomed).some((e) => e.status === "cancelled"),
    );

    for (const role of ["proposition", "opposition", "judge"]) {
      await dropAnswer(keep, `e000-${role}`, answers.get(`e000-${role}`)!, "write");
    }
    await until("the other debate complete", () => committedSteps(events, keep).length === 2);
    expect(watcher.debates().map((d) => d.dir)).toEqual([keep]);
    expect(ofType(events, "watch_error")).toEqual([]);

    // A new folder appearing where the old one was is picked up as a new debate.
    await createManualDebate(sandbox.work, "doomed", { exchanges: 1 });
    await until("the new folder picked up", () => ofType(events, "debate_added", doomed).length === 2);
    await until("the new folder run", () =>
      ofType(events, "run_started", doomed).some((e) => e.reasons.includes("added")),
    );
  });
});
