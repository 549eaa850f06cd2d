import { spawnSync } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { percentile } from "./measure.js";

const root = new URL("../../", import.meta.url).pathname;
const bin = join(root, "apps/debate/dist/bin.js");
const runs = Number(process.env.BENCH_CLI_RUNS ?? 7);

/** Wall milliseconds of one `node args...`; throws when it fails (a broken command times nothing). */
function wall(args: readonly string[]): number {
  const start = performance.now();
  const child = spawnSync(process.execPath, args, {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  const ms = performance.now() - start;
  if (child.status !== 0) throw new Error(`node ${args.join(" ")} exited ${child.status}: ${child.stderr}`);
  return ms;
}

/** A finished copy of examples/ai-review-gate (its replay seats answer at once). */
async function finishedDebate(): Promise<{ folder: string; cleanup: () => Promise<void> }> {
  const work = await mkdtemp(join(tmpdir(), "bench-cli-"));
  const folder = join(work, "ai-review-gate");
  await cp(join(root, "examples/ai-review-gate"), folder, { recursive: true });
  wall([bin, "run", folder]);
  return { folder, cleanup: () => rm(work, { recursive: true, force: true }) };
}

/**
 * Each `debate` command's start-up, run `runs` times alternating with `node -e 0` (so both see the
 * same machine load): median wall time, node's own median, the difference, and the target.
 */
export async function run(): Promise<void> {
  const { folder, cleanup } = await finishedDebate();
  const cases: Array<{ name: string; args: string[]; targetS: number }> = [
    { name: "debate --version", args: ["--version"], targetS: 0.15 },
    { name: "debate --help", args: ["--help"], targetS: 0.15 },
    { name: "debate completion bash", args: ["completion", "bash"], targetS: 0.15 },
    { name: "debate status <finished>", args: ["status", folder], targetS: 0.25 },
    { name: "debate run <finished>", args: ["run", folder], targetS: 0.35 },
  ];
  console.log(`median of ${runs} runs each, alternating with \`node -e 0\` (wall seconds)`);
  console.log(
    `${"command".padEnd(28)} ${"wall".padStart(7)} ${"node -e 0".padStart(10)} ${"diff".padStart(7)}  target`,
  );
  try {
    for (const c of cases) {
      wall([bin, ...c.args]); // warm the file cache
      const cli: number[] = [];
      const bare: number[] = [];
      for (let i = 0; i < runs; i++) {
        bare.push(wall(["-e", "0"]));
        cli.push(wall([bin, ...c.args]));
      }
      const s = (ms: number) => (ms / 1000).toFixed(3);
      const median = percentile(cli, 50);
      const node = percentile(bare, 50);
      const met = median / 1000 <= c.targetS ? "met" : "NOT met";
      console.log(
        `${c.name.padEnd(28)} ${s(median).padStart(7)} ${s(node).padStart(10)} ${s(median - node).padStart(7)}  <= ${c.targetS} s ${met}`,
      );
    }
  } finally {
    await cleanup();
  }
}
