// Watch mode: how long from an answer file being closed to its step being committed, and how much
// memory the watcher holds with 100 debates under watch. Real chokidar on real temp folders.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { type WatchEvent, watchDebates } from "@debatekit/cli";
import { percentile, report } from "./measure.js";

const motion =
  "# Motion\n\nThis house would require a second model's review before merging AI-written code.\n";

function debateMd(slug: string, exchanges: number): string {
  return [
    "---",
    `debate_id: ${slug}`,
    "format: formal",
    `exchanges: ${exchanges}`,
    "current_exchange: 0",
    "current_phase: awaiting_arguments",
    "seats:",
    "  proposition: { adapter: manual }",
    "  opposition: { adapter: manual }",
    "  judge: { adapter: manual }",
    "cumulative_scores:",
    "  proposition: { total: 0, count: 0 }",
    "  opposition: { total: 0, count: 0 }",
    "---",
    "",
    motion,
  ].join("\n");
}

const x3 = (exchange: number) => String(exchange).padStart(3, "0");
const letters = (exchange: number) => (exchange === 0 ? ["a", "b", "c"] : [""]);

/** A valid debater answer: 3 arguments at the opening, 1 after. */
function sideAnswer(role: string, exchange: number): string {
  const args = letters(exchange).map((l) => ({
    title: `${role} point ${exchange}${l}`,
    claim: `The ${role} holds point ${exchange}${l}.`,
    grounds: [{ source: "Bench data", content: "A measured figure.", relevance: "It supports the claim." }],
    warrant: "Measured figures support claims like this one.",
  }));
  return JSON.stringify({ arguments: args });
}

/** A valid judgment: the exchange's arguments scored +0.1 / -0.1 (sums to 0). */
function judgeAnswer(exchange: number): string {
  const scores = letters(exchange).flatMap((l) => [
    { argument_id: `prop_${x3(exchange)}${l}`, score: 0.1, reasoning: "Supported." },
    { argument_id: `opp_${x3(exchange)}${l}`, score: -0.1, reasoning: "Weaker." },
  ]);
  return JSON.stringify({ scores });
}

async function until(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`watch bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** 100 steps (50 exchanges), each timed from the closing answer file to the step_committed event. */
async function measureLatency(work: string): Promise<void> {
  const dir = join(work, "latency");
  await mkdir(join(dir, "inbox"), { recursive: true });
  await writeFile(join(dir, "debate.md"), debateMd("latency", 50));
  let committed = 0;
  let finished = 0;
  let committedAt = 0;
  let startedAt = 0;
  const watcher = watchDebates([dir], {
    onEvent: (e: WatchEvent) => {
      if (e.type === "step_committed") {
        committed++;
        committedAt = performance.now();
      } else if (e.type === "run_finished") finished++;
      else if (e.type === "run_started") startedAt = performance.now();
    },
  });
  await watcher.ready;
  await until(() => finished > 0, "the first run");
  const drop = async (stem: string, text: string) => {
    await writeFile(join(dir, "inbox", `${stem}.json`), text);
    return performance.now(); // writeFile has closed the file
  };
  const times: number[] = [];
  const noticed: number[] = [];
  for (let exchange = 0; exchange < 50; exchange++) {
    // The proposition answers first (a run that finds the opposition missing), then the timed one.
    const before = finished;
    await drop(`e${x3(exchange)}-proposition`, sideAnswer("proposition", exchange));
    await until(() => finished > before, "the proposition's run");
    let closed = await drop(`e${x3(exchange)}-opposition`, sideAnswer("opposition", exchange));
    await until(() => committed === 2 * exchange + 1, `arguments of exchange ${exchange}`);
    times.push(committedAt - closed);
    noticed.push(startedAt - closed);
    await watcher.idle();
    closed = await drop(`e${x3(exchange)}-judge`, judgeAnswer(exchange));
    await until(() => committed === 2 * exchange + 2, `judgment of exchange ${exchange}`);
    times.push(committedAt - closed);
    noticed.push(startedAt - closed);
    await watcher.idle();
  }
  await watcher.close();
  report("answer file closed -> step committed, p50 (100 steps)", percentile(times, 50), "ms");
  report("answer file closed -> step committed, p95 (100 steps)", percentile(times, 95), "ms");
  report("answer file closed -> step committed, max (100 steps)", Math.max(...times), "ms");
  // The watcher's share (write-finish wait + debounce); the rest is the runner's step.
  report("answer file closed -> run started, p50", percentile(noticed, 50), "ms");
  report("answer file closed -> run started, p95", percentile(noticed, 95), "ms");
}

function heap(): { rss: number; heapUsed: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss / 2 ** 20, heapUsed: m.heapUsed / 2 ** 20 };
}

/** Memory of the watcher with 100 waiting debates under one folder, after each was resumed once. */
async function measureMemory(work: string): Promise<void> {
  const root = join(work, "many");
  for (let i = 0; i < 100; i++) {
    const dir = join(root, `d${String(i).padStart(3, "0")}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "debate.md"), debateMd(`d${i}`, 5));
  }
  const before = heap();
  let finished = 0;
  const started = performance.now();
  const watcher = watchDebates([root], { onEvent: (e) => void (e.type === "run_finished" && finished++) });
  await watcher.ready;
  await until(() => finished >= 100, "100 debates resumed", 300_000);
  await watcher.idle();
  const resumedMs = performance.now() - started;
  const after = heap();
  await watcher.close();
  report("100 debates: start -> every debate resumed and waiting", resumedMs, "ms");
  report("100 debates watched: process RSS", after.rss, "MiB");
  report("100 debates watched: V8 heap used", after.heapUsed, "MiB");
  report("100 debates watched: heap used by the watcher (delta)", after.heapUsed - before.heapUsed, "MiB");
}

/** CPU time (user + system) of a process so far, in ms, from /proc (clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14, 15 of stat)
}

/**
 * The real `debate watch` binary on the same 100 debates: its resident memory, from /proc, and
 * the CPU it spends over 10 s once every debate waits (with `--rescan`, its only work then).
 */
async function measureBinary(work: string, rescan: string): Promise<void> {
  const bin = join(
    dirname(createRequire(import.meta.url).resolve("@debatekit/cli/package.json")),
    "dist/bin.js",
  );
  const child = spawn(process.execPath, [bin, "watch", join(work, "many"), "--json", "--rescan", rescan], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let finished = 0;
  let buffer = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) if (line.includes('"type":"run_finished"')) finished++;
  });
  const exited = new Promise<number | null>((done) => child.on("close", done));
  try {
    await until(() => finished >= 100, "100 debates resumed by the binary", 300_000);
    await new Promise((r) => setTimeout(r, 1000)); // settle
    const status = await readFile(`/proc/${child.pid}/status`, "utf8");
    const kib = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
    const label = rescan === "0" ? "--rescan 0" : `--rescan ${rescan}`;
    report(`\`debate watch ${label}\`, 100 debates: RSS`, kib("VmRSS") / 1024, "MiB");
    report(`\`debate watch ${label}\`, 100 debates: peak RSS`, kib("VmHWM") / 1024, "MiB");
    const cpuBefore = await cpuMs(child.pid!);
    await new Promise((r) => setTimeout(r, 10_000));
    report(
      `\`debate watch ${label}\`, 100 idle debates: CPU over 10 s`,
      (await cpuMs(child.pid!)) - cpuBefore,
      "ms",
    );
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

/** Prints the watch-mode figures. */
export async function run(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), "watch-bench-"));
  try {
    await measureLatency(work);
    await measureMemory(work);
    await measureBinary(work, "2000");
    await measureBinary(work, "0");
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
