import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ArgumentRecord, DebateState } from "@debatekit/core";
import type { DebateFrontmatter } from "@debatekit/schema";

/** The dialectic example, read in place (never copied into the repo). */
export const DIALECTIC_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../../shared/fixtures/dialectic/halt-ai-development",
);

/** A fresh temp folder; the returned function removes it. */
export async function makeTempDir(
  prefix = "debatekit-files-",
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** sha256 of every file under `dir` (relative path -> hash), symlinks by target, FIFOs and sockets by kind; the folder's fingerprint. */
export async function hashFolder(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, full);
    if (entry.isFile())
      out[rel] = createHash("sha256")
        .update(await readFile(full))
        .digest("hex");
    else if (entry.isDirectory()) out[`${rel}/`] = "dir";
    else if (entry.isSymbolicLink()) out[rel] = `symlink -> ${await readlink(full)}`;
    else out[rel] = entry.isFIFO() ? "fifo" : entry.isSocket() ? "socket" : "special";
  }
  return out;
}

/** A valid debatekit frontmatter for tests. */
export function sampleFrontmatter(overrides: Partial<DebateFrontmatter> = {}): DebateFrontmatter {
  return {
    debate_id: "sample",
    format: "formal",
    exchanges: 3,
    current_exchange: 0,
    current_phase: "awaiting_arguments",
    seats: {
      proposition: { adapter: "replay" },
      opposition: { adapter: "replay" },
      judge: { adapter: "replay" },
    },
    cumulative_scores: { proposition: { total: 0, count: 0 }, opposition: { total: 0, count: 0 } },
    ...overrides,
  };
}

/** An argument record of the given id (opening when the exchange is 0). */
export function sampleArgument(
  id: string,
  extra: Partial<ArgumentRecord["frontmatter"]> = {},
): ArgumentRecord {
  const side = id.startsWith("prop") ? "prop" : "opp";
  const exchange = Number.parseInt(id.slice(id.indexOf("_") + 1, id.indexOf("_") + 4), 10);
  return {
    frontmatter: { id, side, exchange, title: `Title of ${id}`, claim: `Claim of ${id}.`, ...extra },
    body: `\n## Claim\n\nClaim of ${id}.\n\n## Grounds\n\n### 1. Source\n\n> Content\n\n**Relevance:** why\n\n## Warrant\n\nBecause.\n`,
  };
}

/** The debate.md body used by the sample folder. */
export const SAMPLE_BODY = "\n# Motion\n\nThis house would test everything.\n\n## Scope\n\nUnit tests.\n";

/** A committed state in the middle of a debate: exchange 1 awaiting judgment, openings scored. */
export function sampleState(): DebateState {
  const openings = ["prop_000a", "prop_000b", "prop_000c", "opp_000a", "opp_000b", "opp_000c"].map((id) =>
    sampleArgument(id),
  );
  const rebuttals = [
    sampleArgument("prop_001", { attacks: [{ target_id: "opp_000a", type: "claim_attack" }] }),
    sampleArgument("opp_001", { defends: [{ target_id: "opp_000a", type: "reinforce" }] }),
  ];
  const scores: DebateState["scores"] = {};
  const values = [0.3, 0.1, -0.1, -0.3, 0.2, -0.2];
  openings.forEach((a, i) => {
    scores[a.frontmatter.id] = {
      current_score: values[i]!,
      history: [{ score: values[i]!, reasoning: "ok", scored_at: "2026-11-21T10:00:00.000Z" }],
    };
  });
  return {
    frontmatter: sampleFrontmatter({
      current_exchange: 1,
      current_phase: "awaiting_judgment",
      cumulative_scores: { proposition: { total: 0.3, count: 3 }, opposition: { total: -0.3, count: 3 } },
    }),
    body: SAMPLE_BODY,
    motion: { text: "This house would test everything.", scope: "Unit tests." },
    arguments: [...openings, ...rebuttals].sort(
      (a, b) =>
        a.frontmatter.exchange - b.frontmatter.exchange || (a.frontmatter.id < b.frontmatter.id ? -1 : 1),
    ),
    scores,
    // A formal folder reads with its (here: no) judges/ panel records.
    records: [],
  };
}

/** Writes `state` as a debate folder with the given frontmatter style (using this package's serializers). */
export async function writeStateFolder(
  dir: string,
  state: DebateState,
  style: "yaml" | "json" = "yaml",
): Promise<void> {
  const { serializeArgumentFile, serializeDebateFile } = await import("../documents.js");
  const { serializeScores } = await import("../commit.js");
  await mkdir(path.join(dir, "arguments"), { recursive: true });
  for (const argument of state.arguments) {
    await writeFile(
      path.join(dir, "arguments", `${argument.frontmatter.id}.md`),
      serializeArgumentFile({ ...argument, style }),
    );
  }
  await writeFile(path.join(dir, "scores.json"), serializeScores(state.scores));
  await writeFile(
    path.join(dir, "debate.md"),
    serializeDebateFile({ frontmatter: state.frontmatter, body: state.body, style }),
  );
}
