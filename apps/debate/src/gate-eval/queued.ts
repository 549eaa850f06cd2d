import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { GateRun } from "@debatekit/core";
import { writeFileAtomic } from "@debatekit/files";
import type { GateEvalCase, GatePolicy, GateResult } from "@debatekit/schema";
import type { QueuedDebateEnd } from "@debatekit/tournament";
import { cloneCase, git } from "./git.js";
import { caseScope, REVIEW_SLUG } from "./resume.js";

/** A case made ready for the queue: its review folder, and what the gate said when it was stopped before its first seat call. */
export interface PreparedCase {
  /** The review folder a worker runs; absent when the gate stopped before making one (its `result` is then final). */
  review?: string;
  /** The gate's result at that point: the settings it read from the base revision, or why it could not start. */
  result: GateResult;
}

/**
 * Makes a case's review as `debate gate` would (a private clone at `head`, the settings of the base
 * revision, the policy's seats) and stops the gate before its first seat call: the queue's workers
 * ask the seats. Done once per case (`<work>/prepared.json`), so a resumed evaluation uploads the same folder.
 */
export async function prepareQueuedCase(
  c: GateEvalCase,
  options: { policyFile: string; env: NodeJS.ProcessEnv },
  work: string,
): Promise<PreparedCase> {
  const file = join(work, "prepared.json");
  const review = join(work, "debates", REVIEW_SLUG);
  if (existsSync(file)) {
    // The folder is always the case's own: a path in the file (which anyone may have written) is never followed.
    const prepared = JSON.parse(await readFile(file, "utf8")) as PreparedCase;
    return prepared.review === undefined ? { result: prepared.result } : { ...prepared, review };
  }
  const tree = join(work, "tree");
  const parent = join(work, "debates");
  await rm(tree, { recursive: true, force: true });
  await rm(parent, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await cloneCase(work, c.repo, c.head, tree);
  const { runGate } = await import("../actions/gate.js");
  const stop = new AbortController();
  let reviewing = false;
  const { result } = await runGate(
    { cwd: tree, env: options.env, signal: stop.signal },
    {
      scope: caseScope(c),
      policy: options.policyFile,
      dir: parent,
      slug: REVIEW_SLUG,
      // Told just before the review's first step: the folder is complete, no seat asked yet.
      onNotice: (notice) => {
        if (notice.type !== "reviewing") return;
        reviewing = true;
        stop.abort();
      },
    },
  );
  if (reviewing) await carryRolePrompts(tree, result, review);
  await rm(tree, { recursive: true, force: true });
  const prepared: PreparedCase = reviewing ? { review, result } : { result };
  await writeFileAtomic(file, `${JSON.stringify(prepared, null, 2)}\n`);
  return prepared;
}

/**
 * Copies the role prompts the gate read from the base revision (`.debatekit/agents/<role>.md`, named
 * in its settings) into the review's own `agents/`: a worker has no repository, and the review's
 * own prompts win over any the worker has, so it asks what the gate in CI would have asked.
 */
async function carryRolePrompts(tree: string, result: GateResult, review: string): Promise<void> {
  const base = result.settings?.base;
  const prompts = (result.settings?.files ?? []).filter((f) =>
    /(^|\/)\.debatekit\/agents\/[^/]+\.md$/.test(f),
  );
  if (!base || prompts.length === 0) return;
  await mkdir(join(review, "agents"), { recursive: true });
  for (const file of prompts)
    await writeFile(join(review, "agents", basename(file)), await git(tree, "show", `${base}:${file}`));
}

/** The gate's verdict on a review a worker ran, as the gate judges its own (with the settings read when it was made). */
export async function judgeQueuedCase(
  prepared: PreparedCase,
  end: QueuedDebateEnd,
  policy: GatePolicy,
): Promise<GateResult> {
  const [{ evaluateGate }, { readDebateFolder }] = await Promise.all([
    import("@debatekit/core"),
    import("@debatekit/files"),
  ]);
  const dir = prepared.review!;
  const read = await readDebateFolder(dir);
  if (!read.ok) throw new Error(`${dir}: ${read.errors[0]?.message ?? "unreadable"}`);
  const run: GateRun =
    end.status === "done"
      ? { status: "done" }
      : {
          status: "failed",
          error: { code: "DEBATE_FAILED", message: end.reason ?? "the review failed on its worker" },
        };
  const { scope, revision, settings } = prepared.result;
  return {
    ...evaluateGate({
      state: read.value.state,
      run,
      policy,
      dir,
      ...(scope ? { scope } : {}),
      ...(revision ? { revision } : {}),
    }),
    ...(settings ? { settings } : {}),
  };
}

/**
 * The evaluation's own name on the queue (`<store>/queue-group`), made once: its Redis keys and job
 * ids, so a resumed run finds its jobs, and a new results folder never collects an older one's.
 */
export async function queueGroup(store: string): Promise<string> {
  const file = join(store, "queue-group");
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const group = `eval-${randomBytes(6).toString("hex")}`;
  await writeFileAtomic(file, `${group}\n`);
  return group;
}
