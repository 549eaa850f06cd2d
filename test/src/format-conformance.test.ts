import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { type FormatCase, outsideCase, testFormat } from "./conformance/format-suite.js";
import { repoRoot } from "./workspace.js";

// Every format runs the conformance suite: the built-ins on their offline examples, and every folder
// test/formats/debatekit.config.json registers from outside (each with its conformance.json), run
// from that folder so the config is what registers them.

const example = (path: string) => join(repoRoot, "examples", path);
const redisArtifact = (await readFile(example("review-sum/redis/artifact/v1.md"), "utf8")).replace(
  /^---\n[\s\S]*?\n---\n/,
  "",
);

const builtins: FormatCase[] = [
  {
    name: "formal",
    cwd: tmpdir(),
    example: example("ai-review-gate"),
    create: ["new", "This house would write tests first", "--exchanges", "1"].concat(
      ["--proposition", "--opposition", "--judge"].flatMap((flag) => [flag, "replay"]),
    ),
    tamper: {
      file: "debate.md",
      from: "proposition: { total: 0.2, count: 7 }",
      to: "proposition: { total: 0.9, count: 7 }",
      field: "debate.md:cumulative_scores.proposition",
      code: "CUMULATIVE_SCORES_MISMATCH",
    },
    mcp: {
      motion: "This house would require a second AI model's review before merging AI-written code.",
      seats: { proposition: "replay", opposition: "replay", judge: "replay" },
      length: 5,
    },
    tournament: ["--exchanges", "5"],
  },
  {
    name: "crossfire",
    cwd: tmpdir(),
    example: example("crossfire-grpc"),
    create: ["new", "--format", "crossfire", "gRPC or REST for the public API", "--rounds", "1"].concat(
      ["--proposer", "--challenger", "--judge"].flatMap((flag) => [flag, "replay"]),
    ),
    tamper: {
      file: "debate.md",
      from: "winner: challenger",
      to: "winner: proposer",
      field: "debate.md:winner",
      code: "RECORD_IDS_MISMATCH",
    },
    mcp: {
      motion: "Should we move our internal service-to-service API from REST/JSON to gRPC?",
      seats: { proposer: "replay", challenger: "replay", judge: "replay" },
      length: 3,
    },
    tournament: ["--rounds", "3"],
  },
  {
    name: "review",
    cwd: tmpdir(),
    example: example("review-sum/redis"),
    create: ["review", "--text", redisArtifact, "--no-run"].concat(
      ["--critic", "--author", "--judge"].flatMap((flag) => [flag, "replay"]),
    ),
    tamper: {
      file: "rounds/r01-judgment.md",
      from: "finding_id: r01-f1",
      to: "finding_id: r01-f9",
      field: "rounds/r01-judgment.md:classifications[0].finding_id",
      code: "JUDGE_FINDING_UNKNOWN",
    },
    mcp: { text: redisArtifact, seats: { critic: "replay", author: "replay", judge: "replay" } },
  },
];

const outside = join(repoRoot, "test/formats");
// test/formats is a project like any other: its formats load once allowed (`debate allow`), here
// in a state folder of this file's own, which every run of the binary below inherits.
process.env.XDG_STATE_HOME = await mkdtemp(join(tmpdir(), "format-conformance-state-"));
afterAll(() => rm(process.env.XDG_STATE_HOME!, { recursive: true, force: true }));
const allowed = spawnSync(process.execPath, [join(repoRoot, "apps/debate/dist/bin.js"), "allow", outside], {
  encoding: "utf8",
});
if (allowed.status !== 0) throw new Error(`debate allow ${outside}: ${allowed.stderr}`);
const config = JSON.parse(await readFile(join(outside, "debatekit.config.json"), "utf8")) as {
  formats: string[];
};
const outsideCases = await Promise.all(config.formats.map((folder) => outsideCase(outside, folder)));

for (const c of [...builtins, ...outsideCases]) testFormat(c);
