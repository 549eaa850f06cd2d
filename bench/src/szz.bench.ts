import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { report } from "./measure.js";

// `gate eval build` on the three public histories of test/fixtures/szz-histories, its labels against
// the hand-labelled oracle there: the precision of the bad labels and of fix detection, with 95%
// Wilson intervals, and the time each history takes.
const root = new URL("../../", import.meta.url).pathname;
const bin = join(root, "apps/debate/dist/bin.js");
const fixture = join(root, "test/fixtures/szz-histories");
const HISTORIES = { defu: "main", destr: "main", kleur: "master" } as const;

/** k of n with its 95% Wilson score interval, as "47.1% [31.5%, 63.3%] (16/34)". */
function wilson(k: number, n: number): string {
  if (n === 0) return "n/a (0/0)";
  const z = 1.96;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / d;
  const margin = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return `${pct(p)} [${pct(Math.max(0, centre - margin))}, ${pct(Math.min(1, centre + margin))}] (${k}/${n})`;
}

const rows = async (file: string) =>
  (await readFile(join(fixture, file), "utf8"))
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.startsWith("#"))
    .map((l) => l.split("\t"));

export async function run(): Promise<void> {
  const [oracle, fixLabels] = await Promise.all([rows("oracle.tsv"), rows("fixes.tsv")]);
  const work = await mkdtemp(join(tmpdir(), "bench-szz-"));
  const tally = { right: 0, wrong: 0, unlabelled: 0, fixRight: 0, fixWrong: 0, fixUnlabelled: 0 };
  try {
    for (const [name, branch] of Object.entries(HISTORIES)) {
      const repo = join(work, name);
      execFileSync("git", ["clone", "-q", "-b", branch, join(fixture, `${name}.bundle`), repo]);
      const start = performance.now();
      const out = execFileSync(
        process.execPath,
        [bin, "gate", "eval", "build", "--repo", repo, "--out", `${repo}.jsonl`, "--json"],
        {
          encoding: "utf8",
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      report(`gate eval build on ${name}`, performance.now() - start, "ms");
      const built = JSON.parse(out) as { fixes: Array<{ sha: string }> };
      const cases = (await readFile(`${repo}.jsonl`, "utf8"))
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { label: string; head: string; fix?: string })
        .filter((c) => c.label === "bad");
      for (const c of cases) {
        const row = oracle.find((o) => o[1] === name && c.head.startsWith(o[3]!) && c.fix?.startsWith(o[2]!));
        if (!row) tally.unlabelled++;
        else if (row[5] === "true") tally.right++;
        else tally.wrong++;
      }
      for (const f of built.fixes) {
        const row = fixLabels.find((l) => l[0] === name && f.sha.startsWith(l[1]!));
        if (!row) tally.fixUnlabelled++;
        else if (row[2] === "true") tally.fixRight++;
        else tally.fixWrong++;
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  console.log(
    `${"bad labels right (blamed commit wrote the defect)".padEnd(56)} ${wilson(tally.right, tally.right + tally.wrong)}`,
  );
  console.log(
    `${"commits taken for fixes that fix a bug".padEnd(56)} ${wilson(tally.fixRight, tally.fixRight + tally.fixWrong)}`,
  );
  console.log(
    `${"bad cases / fixes the oracle does not label".padEnd(56)} ${tally.unlabelled} / ${tally.fixUnlabelled}`,
  );
}
