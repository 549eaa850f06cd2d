import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { ArgumentRecord, DebateState } from "@debatekit/core";
import type { DebateFolder } from "@debatekit/files";
import {
  commitStep,
  parseDebateFile,
  readDebateFolder,
  serializeArgumentFile,
  serializeDebateFile,
  serializeScores,
  updateDebateFile,
  writeFileAtomic,
} from "@debatekit/files";
import { percentile, report, timeRuns } from "./measure.js";

const PARAGRAPH =
  "The evidence shows a consistent pattern across independent studies, and the mechanism is well understood. ".repeat(
    6,
  );

function argument(id: string, exchange: number): ArgumentRecord {
  const side = id.startsWith("prop") ? "prop" : "opp";
  const other = side === "prop" ? "opp" : "prop";
  const rebuttal = exchange > 0;
  return {
    frontmatter: {
      id,
      side,
      exchange,
      title: `Argument ${id}`,
      claim: `Claim of ${id}.`,
      attacks: rebuttal
        ? [
            {
              target_id: `${other}_${String(exchange - 1).padStart(3, "0")}${exchange === 1 ? "a" : ""}`,
              type: "grounds_attack",
            },
          ]
        : [],
      defends: [],
    },
    body: `\n## Claim\n\nClaim of ${id}.\n\n## Grounds\n\n### 1. Source\n\n> ${PARAGRAPH}\n\n**Relevance:** direct\n\n## Warrant\n\n${PARAGRAPH}\n`,
  };
}

/** A complete, scored debate of `exchanges` exchanges (3 openings a side, then 1 rebuttal a side per exchange). */
function debateOf(exchanges: number): DebateState {
  const args: ArgumentRecord[] = [];
  for (const side of ["prop", "opp"])
    for (const l of ["a", "b", "c"]) args.push(argument(`${side}_000${l}`, 0));
  for (let x = 1; x < exchanges; x++) {
    const n = String(x).padStart(3, "0");
    args.push(argument(`prop_${n}`, x), argument(`opp_${n}`, x));
  }
  const scores: DebateState["scores"] = {};
  for (const a of args) {
    const score = a.frontmatter.side === "prop" ? 0.1 : -0.1;
    scores[a.frontmatter.id] = {
      current_score: score,
      history: [{ score, reasoning: PARAGRAPH, scored_at: "2026-11-21T10:00:00Z" }],
    };
  }
  return {
    frontmatter: {
      debate_id: `bench-${exchanges}`,
      format: "formal",
      exchanges: exchanges + 1,
      current_exchange: exchanges,
      current_phase: "awaiting_arguments",
      seats: {
        proposition: { adapter: "replay" },
        opposition: { adapter: "replay" },
        judge: { adapter: "replay" },
      },
    },
    body: "\n# Motion\n\nThis house would benchmark.\n",
    motion: { text: "This house would benchmark." },
    arguments: args,
    scores,
  };
}

async function writeDebate(dir: string, state: DebateState): Promise<void> {
  await mkdir(path.join(dir, "arguments"), { recursive: true });
  for (const a of state.arguments) {
    await writeFile(
      path.join(dir, "arguments", `${a.frontmatter.id}.md`),
      serializeArgumentFile({ ...a, style: "yaml" }),
    );
  }
  await writeFile(path.join(dir, "scores.json"), serializeScores(state.scores));
  await writeFile(
    path.join(dir, "debate.md"),
    serializeDebateFile({ frontmatter: state.frontmatter, body: state.body, style: "yaml" }),
  );
}

async function mustRead(dir: string): Promise<DebateFolder> {
  const read = await readDebateFolder(dir);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return read.value;
}

/** readDebateFolder and commitStep of one arguments step, on 10/100/500-exchange debates. */
/**
 * writeFileAtomic as it was before session 5, through fs/promises (each call a round trip through
 * libuv's thread pool), kept only as the reference the synchronous one is compared with.
 */
async function writeFileAtomicPromises(target: string, content: string): Promise<void> {
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`,
  );
  const handle = await open(temp, "wx", 0o644);
  await handle.writeFile(content);
  await handle.sync();
  await handle.close();
  await rename(temp, target);
  const folder = await open(path.dirname(target), "r");
  await folder.sync();
  await folder.close();
}

/** Median CPU (user + system, all threads) of one call of `write`, over `runs` calls after 20 warm-up calls. */
async function cpuPerWrite(write: (i: number) => Promise<void>, runs = 300): Promise<number> {
  for (let i = 0; i < 20; i++) await write(i);
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    await write(i);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  return percentile(cpu, 50);
}

function mustParse(text: string) {
  const parsed = parseDebateFile(text);
  if (!parsed.ok) throw new Error(`debate.md does not parse: ${parsed.errors[0]?.message}`);
  return parsed.value;
}

export async function run(): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), "debatekit-bench-files-"));
  try {
    for (const exchanges of [10, 100, 500]) {
      const dir = path.join(root, `d${exchanges}`);
      const state = debateOf(exchanges);
      await writeDebate(dir, state);
      const times = await timeRuns(() => mustRead(dir), exchanges === 500 ? 10 : 30);
      report(
        `readDebateFolder, ${exchanges} exchanges (${state.arguments.length} arguments), p50`,
        percentile(times, 50),
        "ms",
      );
      report(`readDebateFolder, ${exchanges} exchanges, p95`, percentile(times, 95), "ms");
    }
    // commitStep: an arguments step (2 new files, graph, debate.md) on 10/100/500-exchange debates; a fresh
    // copy each run. Its cost should follow what it writes, not the size of the debate.
    for (const exchanges of [10, 100, 500]) {
      const source = path.join(root, `d${exchanges}`);
      const copies: string[] = [];
      for (let i = 0; i < 23; i++) {
        const copy = path.join(root, `c${exchanges}-${i}`);
        await cp(source, copy, { recursive: true });
        copies.push(copy);
      }
      // Time only commitStep itself, not the read that prepares it (timeRuns does 3 warm-up runs + 20).
      const commitMs: number[] = [];
      let next = 0;
      await timeRuns(async () => {
        const dir = copies[next++]!;
        const folder = await mustRead(dir);
        const x = folder.state.frontmatter.current_exchange;
        const n = String(x).padStart(3, "0");
        const stepped: DebateState = {
          ...folder.state,
          frontmatter: { ...folder.state.frontmatter, current_phase: "awaiting_judgment" },
          arguments: [...folder.state.arguments, argument(`prop_${n}`, x), argument(`opp_${n}`, x)],
        };
        const start = performance.now();
        await commitStep(folder, stepped);
        commitMs.push(performance.now() - start);
        await rm(dir, { recursive: true, force: true });
      }, 20);
      report(
        `commitStep, arguments step on ${exchanges} exchanges (4 fsynced writes), p50`,
        percentile(commitMs, 50),
        "ms",
      );
      report(`commitStep, arguments step on ${exchanges} exchanges, p95`, percentile(commitMs, 95), "ms");
    }
    // What a commit does to debate.md's text, without the disk: the edit of the marker and the
    // cumulative scores (each edit checked by a parse), then the read back of the text written. Each
    // commit edits what the one before wrote, as a run does.
    {
      const source = await readFile(path.join(root, "d500", "debate.md"), "utf8");
      let text = source;
      let doc = mustParse(text);
      const cpu: number[] = [];
      for (let i = 0; i < 400; i++) {
        const start = process.cpuUsage();
        const fm = doc.frontmatter;
        const side = (total: number) => ({ total: Math.round(total * 100) / 100, count: 1000 + i });
        const next = {
          ...fm,
          current_exchange: fm.current_exchange + 1,
          cumulative_scores: { proposition: side(i * 0.05), opposition: side(-i * 0.05) },
        };
        text = updateDebateFile(text, { ...doc, frontmatter: next }, fm);
        doc = mustParse(text);
        const used = process.cpuUsage(start);
        cpu.push((used.user + used.system) / 1000);
      }
      report("a commit's debate.md edit and read back, CPU (median of 400)", percentile(cpu, 50), "ms");
    }
    // One atomic write of a 3 KB file (temp file, fsync, rename, folder fsync): the library's, by
    // synchronous system calls, against the same steps through fs/promises.
    const atomic = path.join(root, "atomic");
    await mkdir(atomic);
    const text = PARAGRAPH.repeat(5).slice(0, 3000);
    for (let round = 0; round < 2; round++) {
      report(
        `writeFileAtomic, 3 KB, synchronous calls: CPU (median), round ${round + 1}`,
        await cpuPerWrite((i) => writeFileAtomic(path.join(atomic, `s${i % 5}`), text)),
        "ms",
      );
      report(
        `the same through fs/promises (the old code): CPU (median), round ${round + 1}`,
        await cpuPerWrite((i) => writeFileAtomicPromises(path.join(atomic, `p${i % 5}`), text)),
        "ms",
      );
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
