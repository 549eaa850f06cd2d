import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { writeFileAtomic } from "@debatekit/files";
import type { GateEvalCase, GatePolicy } from "@debatekit/schema";

// A results folder can be handed over like any folder: a review folder found under
// `<store>/work/<id>/` is resumed as the evaluation's own only when the evaluation recorded making
// it (`<store>/made/<id>.json`: the folder, a hash of the policy, the hashes of the programs the
// policy's seats name). Even then only what the policy still names is vouched for; anything else
// its seats would run needs `debate allow`, as for `debate run`.

/** What the evaluation records when it makes a case's review folder. */
interface MadeRecord {
  version: 1;
  case: string;
  /** The review folder, relative to the store. */
  folder: string;
  /** sha256 of the policy the folder was made with. */
  policy_sha256: string;
  /** The consent hashes of the programs the policy's seats name (packages/files/src/consent.ts). */
  programs: string[];
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const policyHash = (policy: GatePolicy) => sha256(JSON.stringify(policy));

/** The record of the case's review folder. */
export const madeFile = (store: string, id: string) => join(store, "made", `${id}.json`);

/** The consent hashes of the programs (commands, servers off this machine, env, workspaces) the policy's seats name, for a review at `dir`. */
async function policyPrograms(policy: GatePolicy, dir: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const { programsOfFrontmatter } = await import("@debatekit/files");
  return (await programsOfFrontmatter(policy, dir, { env })).programs.map((p) => p.hash);
}

/** Records, before the gate makes it, that the evaluation makes the case's review folder `dir` with `policy`. */
export async function recordMade(
  store: string,
  c: GateEvalCase,
  dir: string,
  policy: GatePolicy,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const record: MadeRecord = {
    version: 1,
    case: c.id,
    folder: relative(store, dir),
    policy_sha256: policyHash(policy),
    programs: await policyPrograms(policy, dir, env),
  };
  await writeFileAtomic(madeFile(store, c.id), `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * The programs the evaluation vouches for when it resumes the review folder `dir`: those it
 * recorded when it made the folder that the policy still names; none for a folder it has no record
 * of making (placed there by someone else, or made with another policy). What is not vouched for
 * runs only if the user allowed it (`debate allow`).
 */
export async function vouchedOnResume(
  store: string,
  c: GateEvalCase,
  dir: string,
  policy: GatePolicy,
  env: NodeJS.ProcessEnv,
): Promise<string[]> {
  let record: Partial<MadeRecord>;
  try {
    record = JSON.parse(await readFile(madeFile(store, c.id), "utf8")) as Partial<MadeRecord>;
  } catch {
    return [];
  }
  if (
    record.version !== 1 ||
    record.case !== c.id ||
    record.folder !== relative(store, dir) ||
    record.policy_sha256 !== policyHash(policy) ||
    !Array.isArray(record.programs)
  )
    return [];
  const named = new Set(await policyPrograms(policy, dir, env));
  return record.programs.filter((hash) => typeof hash === "string" && named.has(hash));
}
