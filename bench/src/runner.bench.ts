import fs from "node:fs";
import { cp, mkdtemp, open, readdir, readFile, rm, stat, unlink, writeFile } from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { syncDirectory, writeFileAtomic, writeFilesAtomic } from "@debatekit/files";
import { runDebate } from "@debatekit/runner";
import { percentile, report } from "./measure.js";

const example = new URL("../../examples/ai-review-gate/", import.meta.url).pathname;

interface Entry {
  exchange: number;
  role: string;
  text: string;
  delay_ms?: number;
}

/** The example's openings and first judgment, then N-1 generated rebuttal exchanges. */
async function recording(exchanges: number, delayMs = 0): Promise<string> {
  const recorded: Entry[] = (await readFile(join(example, "replay.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const lines: Entry[] = recorded.filter((e) => e.exchange === 0 && !(e as { attempt?: number }).attempt);
  for (let x = 1; x < exchanges; x++) {
    const id = String(x).padStart(3, "0");
    for (const role of ["proposition", "opposition"]) {
      const argument = {
        title: `Rebuttal ${x} of the ${role}`,
        claim: `The ${role}'s case still holds after exchange ${x}.`,
        grounds: [
          { source: "Benchmark", content: "Generated ground.", relevance: "Keeps the shape realistic." },
        ],
        warrant: "A generated warrant of ordinary length, standing in for a model's reasoning.",
        attacks: [
          {
            target_id: role === "proposition" ? "opp_000a" : "prop_000a",
            attack_type: "claim_attack",
            content: "A generated attack.",
          },
        ],
      };
      lines.push({ exchange: x, role, text: JSON.stringify({ arguments: [argument] }) });
    }
    lines.push({
      exchange: x,
      role: "judge",
      text: JSON.stringify({
        scores: [
          { argument_id: `prop_${id}`, score: 0.05, reasoning: "Generated." },
          { argument_id: `opp_${id}`, score: -0.05, reasoning: "Generated." },
        ],
      }),
    });
  }
  return `${lines.map((l) => JSON.stringify(delayMs && l.role !== "judge" ? { ...l, delay_ms: delayMs } : l)).join("\n")}\n`;
}

async function prepare(parent: string, exchanges: number, delayMs = 0): Promise<string> {
  const dir = join(parent, `d${exchanges}-${delayMs}`);
  await cp(example, dir, { recursive: true });
  const debate = await readFile(join(dir, "debate.md"), "utf8");
  await writeFile(join(dir, "debate.md"), debate.replace(/^exchanges: \d+$/m, `exchanges: ${exchanges}`));
  // One exchange more than the debate asks for: a resume with work left runs it (see run()).
  await writeFile(join(dir, "replay.jsonl"), await recording(exchanges + 1, delayMs));
  return dir;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Runs a prepared debate to its end; returns the wall time of each exchange (judgment committed). */
async function runTimed(
  dir: string,
  n: number,
): Promise<{
  total: number;
  cpu: number;
  perExchange: number[];
  cpuPerExchange: number[];
  systemPerExchange: number[];
}> {
  const perExchange: number[] = [];
  const cpuPerExchange: number[] = [];
  const systemPerExchange: number[] = [];
  let last = performance.now();
  const cpuStart = process.cpuUsage();
  let cpuLast = cpuStart;
  const start = last;
  const summary = await runDebate(dir, {
    onEvent: (e) => {
      if (e.type !== "step_committed" || e.phase !== "awaiting_arguments") return;
      const t = performance.now();
      perExchange.push(t - last);
      last = t;
      const c = process.cpuUsage();
      cpuPerExchange.push((c.user - cpuLast.user + c.system - cpuLast.system) / 1000);
      systemPerExchange.push((c.system - cpuLast.system) / 1000);
      cpuLast = c;
    },
  });
  const total = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  if (summary.status !== "done" || summary.exchange !== n)
    throw new Error(`run stopped: ${JSON.stringify(summary)}`);
  return { total, cpu: (cpu.user + cpu.system) / 1000, perExchange, cpuPerExchange, systemPerExchange };
}

/**
 * Counts fsyncs (fs.fsyncSync, which the atomic writes use, and FileHandle.sync, of files and
 * folders alike) from now until `stop`; `count` says how many so far. The ES module bindings of
 * node:fs follow the patched function once syncBuiltinESMExports is called.
 */
async function countSyncs(scratch: string): Promise<{ count: () => number; stop: () => void }> {
  const probe = await open(join(scratch, ".probe"), "w");
  const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
  await probe.close();
  const sync = proto.sync;
  const fsyncSync = fs.fsyncSync;
  let n = 0;
  proto.sync = function (this: unknown) {
    n++;
    return sync.call(this);
  };
  fs.fsyncSync = (fd: number) => {
    n++;
    fsyncSync(fd);
  };
  syncBuiltinESMExports();
  return {
    count: () => n,
    stop: () => {
      proto.sync = sync;
      fs.fsyncSync = fsyncSync;
      syncBuiltinESMExports();
    },
  };
}

/**
 * The durable writes of the last exchange of the finished debate in `dir`, replayed alone (no debate
 * logic): what commitStep and the journal write, with the same files, contents and fsync rounds.
 * `minimal`: only what a crash-safe commit requires (docs/architecture.md#crash-safe-and-exactly-once) (no pending-step record, so no tidying of it).
 * Returns the CPU per exchange (median of `runs`) and the fsyncs one replay makes.
 */
async function replayDurableWrites(
  dir: string,
  scratch: string,
  n: number,
  minimal: boolean,
  runs = 25,
): Promise<{ cpu: number; syncs: number }> {
  const x = `x${String(n - 1).padStart(4, "0")}-`;
  const journalFiles = (await readdir(join(dir, ".debate/journal"))).filter((f) => f.startsWith(x));
  const journal = await Promise.all(
    journalFiles.map((f) => readFile(join(dir, ".debate/journal", f), "utf8")),
  );
  const id = String(n - 1).padStart(3, "0");
  const args = await Promise.all(
    [`prop_${id}.md`, `opp_${id}.md`].map(async (f) => ({
      f,
      text: await readFile(join(dir, "arguments", f), "utf8"),
    })),
  );
  const debate = await readFile(join(dir, "debate.md"), "utf8");
  const scores = await readFile(join(dir, "scores.json"), "utf8");
  // The pending-step record holds the judged records as they were: about two records' size.
  const pending =
    JSON.stringify({ version: 2, exchange: n - 1, phase: "awaiting_judgment", restore: {} }) +
    scores.slice(0, 400);
  const root = await mkdtemp(join(scratch, "replay-"));
  const target = (f: string) => join(root, f);
  const one = async () => {
    // Arguments step: each debater's journal entry, the argument files, debate.md last.
    for (const [i, text] of journal.slice(0, 2).entries())
      await writeFileAtomic(target(`.debate/journal/${i}.json`), text);
    await writeFilesAtomic(args.map((a) => ({ target: target(`arguments/${a.f}`), content: a.text })));
    await writeFilesAtomic([{ target: target("debate.md"), content: debate }]);
    // Judgment step: the judge's entry, (the pending record,) scores.json, debate.md last.
    await writeFileAtomic(target(".debate/journal/2.json"), journal[2] ?? journal[0]!);
    if (!minimal) await writeFilesAtomic([{ target: target(".debate/pending-step.json"), content: pending }]);
    await writeFilesAtomic([{ target: target("scores.json"), content: scores }]);
    await writeFilesAtomic([{ target: target("debate.md"), content: debate }]);
    if (!minimal) {
      await unlink(target(".debate/pending-step.json"));
      await syncDirectory(target(".debate"));
    }
  };
  await one();
  const counter = await countSyncs(scratch);
  await one();
  const syncs = counter.count();
  counter.stop();
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    await one();
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  return { cpu: percentile(cpu, 50), syncs };
}

/**
 * Orchestration overhead per exchange with instant replay seats, at several debate lengths so the
 * growth is visible (the last 10 exchanges' cost against the average), resume time, and parallel seats.
 */
export async function run(): Promise<void> {
  const parent = await mkdtemp(join(tmpdir(), "bench-runner-"));
  try {
    for (const n of [10, 50, 200, 500]) {
      const dir = await prepare(parent, n);
      const syncs = await countSyncs(parent);
      const { total, cpu, perExchange, cpuPerExchange, systemPerExchange } = await runTimed(dir, n);
      syncs.stop();
      // Per exchange after the first (the first pays the process's one-time loads: the tokenizer's
      // ranks, ~1 s of CPU, and the skills folders): the median, and over the last 10 exchanges.
      const steady = cpuPerExchange.slice(1);
      report(`run ${n} exchanges: CPU per exchange after the first (median)`, percentile(steady, 50), "ms");
      report(
        `run ${n} exchanges: CPU per exchange, last 10 exchanges (median)`,
        percentile(steady.slice(-10), 50),
        "ms",
      );
      // The kernel's part (fsync above all) of the figure above: on a virtual machine it moves the
      // most between runs of the same code.
      report(
        `run ${n} exchanges: of it system CPU, last 10 exchanges (median)`,
        percentile(systemPerExchange.slice(1).slice(-10), 50),
        "ms",
      );
      report(`run ${n} exchanges: CPU of the first exchange`, cpuPerExchange[0] ?? Number.NaN, "ms");
      const lastTen = perExchange.slice(-10);
      report(`run ${n} exchanges, instant replay seats: per exchange`, total / n, "ms");
      report(
        `run ${n} exchanges: per exchange, last 10 exchanges`,
        lastTen.reduce((a, b) => a + b, 0) / 10,
        "ms",
      );
      report(`run ${n} exchanges: CPU time per exchange`, cpu / n, "ms");
      report(`run ${n} exchanges: fsyncs per exchange (files and folders)`, syncs.count() / n, "");
      report(`run ${n} exchanges, instant replay seats: total`, total / 1000, "s");
      // Resume: lock, read the whole folder, decide there is nothing left to do.
      const resumes: number[] = [];
      for (let i = 0; i < 5; i++) resumes.push(await timed(() => runDebate(dir)));
      report(
        `resume a finished debate of ${n} exchanges (median of 5)`,
        resumes.sort((a, b) => a - b)[2]!,
        "ms",
      );
      const journal = join(dir, ".debate/journal");
      const names = await readdir(journal);
      const sizes = await Promise.all(names.map(async (f) => (await stat(join(journal, f))).size));
      const last = names
        .map((f, i) => ({ f, size: sizes[i]! }))
        .filter((e) => e.f.startsWith(`x${String(n - 1).padStart(4, "0")}-`));
      report(
        `run ${n} exchanges: journal bytes, whole debate`,
        sizes.reduce((a, b) => a + b, 0),
        "B",
      );
      report(
        `run ${n} exchanges: journal bytes of the last exchange`,
        last.reduce((a, e) => a + e.size, 0),
        "B",
      );
      if (n === 500) {
        // The floor the crash guarantees set: the same exchange's durable writes with no debate logic.
        for (const minimal of [false, true]) {
          const floor = await replayDurableWrites(dir, parent, n, minimal);
          const what = minimal ? "fewest a crash-safe commit allows" : "as the runner makes them";
          report(`exchange 500's durable writes alone (${what}): fsyncs`, floor.syncs, "");
          report(`exchange 500's durable writes alone (${what}): CPU`, floor.cpu, "ms");
        }
        // A resume with work left (after a crash, or `exchanges` raised): the run reads the
        // journal, then runs one more exchange (the recording holds it).
        const debateFile = join(dir, "debate.md");
        const text = await readFile(debateFile, "utf8");
        await writeFile(debateFile, text.replace(/^exchanges: 500$/m, "exchanges: 501"));
        const cpu = process.cpuUsage();
        let status = "";
        const wall = await timed(async () => {
          status = (await runDebate(dir)).status;
        });
        const used = process.cpuUsage(cpu);
        if (status !== "done") throw new Error(`the 501st exchange stopped: ${status}`);
        report("resume 500 exchanges and run a 501st (reads the journal): wall", wall, "ms");
        report("resume 500 exchanges and run a 501st: CPU", (used.user + used.system) / 1000, "ms");
      }
    }
    const slow = await prepare(parent, 1, 1000);
    const wall = await timed(() => runDebate(slow));
    report("wall time of one exchange, two seats taking 1 s each", wall / 1000, "s");
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}
