// Scripted crossfire seats for tournament tests with http seats against the model server: answers
// by the role the prompt names, and the judge sides with the stronger name (alice > bob > carol),
// so a local and a queued run of the same tournament must end the same.
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ModelRequest } from "./server.js";

const strength: Record<string, number> = { alice: 3, bob: 2, carol: 1 };

/** The answer of the seat (named by the request's model) to a crossfire prompt. */
export function crossfireAnswer(request: ModelRequest): string {
  const prompt = request.lastUserText;
  const who = request.model;
  if (/You are the \*\*proposer\*\*/.test(prompt)) {
    return JSON.stringify({
      position: `${who} argues for.`,
      points: [
        {
          claim: `${who}: it removes defects.`,
          category: "correctness",
          evidence: [{ kind: "data", ref: "incidents.csv", detail: "3 incidents" }],
        },
      ],
    });
  }
  if (/You are the \*\*challenger\*\*/.test(prompt)) {
    return JSON.stringify({
      position: `${who} argues against.`,
      points: [
        {
          claim: `${who}: other causes.`,
          stance: "flaw",
          targets: ["P1.1"],
          category: "correctness",
          evidence: [{ kind: "doc", ref: "postmortem.md", detail: "config errors" }],
        },
        { claim: `${who}: wider access.`, category: "security", unsupported: true },
        { claim: `${who}: new workflow.`, category: "developer_experience", unsupported: true },
      ],
    });
  }
  const proposer = prompt.match(/(\w+) argues for\./)?.[1] ?? "";
  const challenger = prompt.match(/(\w+) argues against\./)?.[1] ?? "";
  return JSON.stringify({
    winner: (strength[proposer] ?? 0) >= (strength[challenger] ?? 0) ? "proposer" : "challenger",
    reasoning: "P1.1 against C1.1: decided by the evidence.",
    cited_points: ["P1.1", "C1.1"],
    ratings: { genuine_disagreement: "medium", evidence_quality: "medium", challenge_depth: "medium" },
    agreements: [{ text: "The incidents are real.", points: ["P1.1", "C1.1"] }],
    disagreements: ["Their cause."],
    unresolved: [],
    recommendation: "Measure the causes first.",
  });
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * `model sha256(prompt)` of a request: the same key a journal entry gives (model, prompt_sha256).
 * Not one call's identity (two debates can send a seat the same prompt): compare sorted lists.
 */
export const promptKey = (r: ModelRequest) => `${r.model} ${sha(r.lastUserText)}`;

/** Sorted prompt keys of the requests with one of these outcomes. */
export const keysOf = (requests: ModelRequest[], ...outcomes: Array<ModelRequest["outcome"]>) =>
  requests
    .filter((r) => outcomes.includes(r.outcome))
    .map(promptKey)
    .sort();

/** Sorted `model prompt_sha256` of every journaled call with an answer in a tournament's debates. */
export async function journaledPrompts(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const id of await readdir(join(dir, "debates"))) {
    const journal = join(dir, "debates", id, ".debate/journal");
    for (const file of (await readdir(journal).catch(() => [] as string[])).filter((f) =>
      f.endsWith(".json"),
    )) {
      const entry = JSON.parse(await readFile(join(journal, file), "utf8"));
      // A call cut off by a stop is journaled `cancelled`: asked, never answered.
      if (entry.result?.status === "ok") out.push(`${entry.model} ${entry.prompt_sha256}`);
    }
  }
  return out.sort();
}
