import { execFileSync } from "node:child_process";
import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { applyJudgment, type DebateState } from "@debatekit/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitStep } from "./commit.js";
import { readDebateFolder } from "./read.js";
import { hashFolder, makeTempDir, sampleState, writeStateFolder } from "./test-helpers/folder.js";

// Hostile folders: paths, symlinks, FIFOs, sockets, devices, hand-edited
// committed state, pathological JSON, planted secrets. Each case starts from a valid folder (exchange 1
// awaiting judgment: 6 scored openings, 2 rebuttals), breaks one thing for real on disk, and expects
// the error's code at `file:field`, a message starting with the file, no piece of a planted secret,
// and every file inside the folder (and outside it) byte-identical after the read.

type Mutate = (dir: string, outside: string) => Promise<void>;
interface HostileCase {
  name: string;
  /** Changes the committed state before it is written (a hand edit that still serializes). */
  edit?: (state: DebateState) => void;
  /** Changes the folder on disk after it is written. */
  mutate?: Mutate;
  style?: "yaml" | "json";
  code: string;
  path: string;
  /** Text the message must contain (what was expected, or the offender). */
  says?: string | RegExp;
  /** A planted secret: no 8-character piece of it may appear in any error. */
  secret?: string;
}

const DEBATE = "debate.md";
const SCORES = "scores.json";
// Fake credentials with real shapes (random-looking bodies), planted where errors quote content.
const KEY = "sk-proj-Q7vX2mL9pR4tY8wZ3nB6cD1fG5hJ0kA";
const PEM_BODY = "MIIEowIBAAKCAQEAq7BFUpkGp3+LQmlQYh0rSm8xZk9xT3BlbkFJ8vQ2mR7tY1uW4zX6";
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`;

const file = (dir: string, name: string) => path.join(dir, name);
function edit(name: string, from: string | RegExp, to: string): Mutate {
  return async (dir) => {
    const text = await readFile(file(dir, name), "utf8");
    const next = text.replace(from, to);
    if (next === text) throw new Error(`case setup: ${String(from)} not found in ${name}`);
    await writeFile(file(dir, name), next);
  };
}
const replaceWith =
  (name: string, make: (at: string, outside: string) => Promise<void>): Mutate =>
  async (dir, outside) => {
    await rm(file(dir, name), { recursive: true, force: true });
    await make(file(dir, name), outside);
  };
const fifo = (name: string) =>
  replaceWith(name, async (at) => {
    execFileSync("mkfifo", [at]);
  });
const folder = (name: string) => replaceWith(name, async (at) => mkdir(at));
const linkTo = (name: string, target: (outside: string) => string) =>
  replaceWith(name, async (at, outside) => symlink(target(outside), at));
const sockets: Server[] = [];
const socket = (name: string) =>
  replaceWith(name, async (at) => {
    const server = createServer();
    sockets.push(server);
    await new Promise<void>((done) => server.listen(at, done));
  });
const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
const pieces = (secret: string) =>
  Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));

const cases: HostileCase[] = [
  // Paths, symlinks and file kinds
  {
    name: "debate.md is a FIFO (would hang a plain read)",
    mutate: fifo(DEBATE),
    code: "FILE_NOT_REGULAR",
    path: "debate.md:(file)",
    says: "named pipe (FIFO)",
  },
  {
    name: "scores.json is a FIFO",
    mutate: fifo(SCORES),
    code: "FILE_NOT_REGULAR",
    path: "scores.json:(file)",
    says: "named pipe",
  },
  {
    name: "an argument is a FIFO",
    mutate: fifo("arguments/prop_001.md"),
    code: "FILE_NOT_REGULAR",
    path: "arguments/prop_001.md:(file)",
  },
  {
    name: "the pending-step record is a FIFO",
    mutate: async (dir) => {
      await mkdir(file(dir, ".debate"), { recursive: true });
      execFileSync("mkfifo", [file(dir, ".debate/pending-step.json")]);
    },
    code: "FILE_NOT_REGULAR",
    path: ".debate/pending-step.json:(file)",
  },
  {
    name: "scores.json is a socket",
    mutate: socket(SCORES),
    code: "FILE_NOT_REGULAR",
    path: "scores.json:(file)",
    says: "a socket",
  },
  {
    name: "scores.json is a directory",
    mutate: folder(SCORES),
    code: "FILE_NOT_REGULAR",
    path: "scores.json:(file)",
    says: "a directory",
  },
  {
    name: "scores.json links to /dev/zero",
    mutate: linkTo(SCORES, () => "/dev/zero"),
    code: "PATH_ESCAPE",
    path: "scores.json:(file)",
  },
  {
    name: "scores.json links to a file outside the folder",
    mutate: linkTo(SCORES, (outside) => path.join(outside, "scores.json")),
    code: "PATH_ESCAPE",
    path: "scores.json:(file)",
    says: "leads outside the folder",
  },
  {
    name: "debate.md is a symlink loop",
    mutate: linkTo(DEBATE, () => "debate.md"),
    code: "PATH_ESCAPE",
    path: "debate.md:(file)",
    says: "loops",
  },
  {
    name: "arguments/ links to a folder outside (its listing would be read there)",
    mutate: linkTo("arguments", (outside) => outside),
    code: "PATH_ESCAPE",
    path: "arguments/:(file)",
  },
  {
    name: "arguments/ is a file",
    mutate: replaceWith("arguments", async (at) => writeFile(at, "not a folder\n")),
    code: "ARGUMENTS_NOT_FOLDER",
    path: "arguments/:(file)",
    says: "expected a folder of argument files",
  },
  {
    name: "an argument links to another argument through a symlink loop",
    mutate: async (dir) => {
      await rm(file(dir, "arguments/opp_001.md"));
      await symlink("opp_001.md", file(dir, "arguments/opp_001.md"));
    },
    code: "PATH_ESCAPE",
    path: "arguments/opp_001.md:(file)",
  },

  // Pathological JSON and YAML
  {
    name: "scores.json nested 100k levels deep",
    mutate: async (dir) => writeFile(file(dir, SCORES), `{"prop_000a": {"current_score": ${deep(100_000)}}}`),
    code: "SCORES_INVALID_JSON",
    path: "scores.json:(root)",
    says: "nests 100002 levels deep, expected at most 64",
  },
  {
    name: "JSON frontmatter nested 100k levels deep",
    style: "json",
    mutate: async (dir) =>
      writeFile(file(dir, DEBATE), `{"debate_id": ${deep(100_000)}}\n\n# Motion\n\nX.\n`),
    code: "FRONTMATTER_INVALID",
    path: "debate.md:(frontmatter)",
    says: "nests 100001 levels deep",
  },
  {
    name: "YAML frontmatter with a flow list nested 100k levels deep",
    mutate: edit(DEBATE, "exchanges: 3", `exchanges: ${deep(100_000)}`),
    code: "FRONTMATTER_INVALID",
    path: "debate.md:(frontmatter)",
    says: "nests 100000 levels deep",
  },

  // Hand-edited committed state, checked with the rules a model answer passes
  {
    name: "an attack targets an argument that does not exist",
    edit: (s) => {
      s.arguments.find((a) => a.frontmatter.id === "prop_001")!.frontmatter.attacks![0]!.target_id =
        "opp_000z";
    },
    code: "ARGUMENT_FIELD_INVALID",
    path: "arguments/prop_001.md:attacks[0].target_id",
  },
  {
    name: "an attack targets an id of the right form that is not in arguments/",
    mutate: edit("arguments/prop_001.md", "target_id: opp_000a", "target_id: opp_000d"),
    code: "ARGUMENT_FIELD_INVALID",
    path: "arguments/prop_001.md:attacks[0].target_id",
  },
  {
    name: "an attack targets a committed id that was never argued (opp_002)",
    mutate: edit("arguments/prop_001.md", "target_id: opp_000a", "target_id: opp_002"),
    code: "ARGUMENT_TARGET_UNKNOWN",
    path: "arguments/prop_001.md:attacks[0].target_id",
    says: "which does not exist",
  },
  {
    name: "an attack targets its own side",
    mutate: edit("arguments/prop_001.md", "target_id: opp_000a", "target_id: prop_000b"),
    code: "ARGUMENT_ATTACK_OWN_SIDE",
    path: "arguments/prop_001.md:attacks[0].target_id",
    says: "an attack must target the opposition's argument",
  },
  {
    name: "a defense targets the other side",
    mutate: edit("arguments/opp_001.md", "target_id: opp_000a", "target_id: prop_000a"),
    code: "ARGUMENT_DEFENSE_OTHER_SIDE",
    path: "arguments/opp_001.md:defends[0].target_id",
    says: "a defense must target the opposition's own argument",
  },
  {
    name: "an attack targets an argument of the same exchange",
    mutate: edit("arguments/prop_001.md", "target_id: opp_000a", "target_id: opp_001"),
    code: "ARGUMENT_TARGET_NOT_EARLIER",
    path: "arguments/prop_001.md:attacks[0].target_id",
  },
  {
    name: "a defense targets an argument that does not exist",
    mutate: edit("arguments/opp_001.md", "target_id: opp_000a", "target_id: opp_000d"),
    code: "ARGUMENT_FIELD_INVALID",
    path: "arguments/opp_001.md:defends[0].target_id",
  },
  {
    name: "an opening attacks (nothing earlier exists)",
    edit: (s) => {
      s.arguments.find((a) => a.frontmatter.id === "prop_000a")!.frontmatter.attacks = [
        { target_id: "opp_000a", type: "claim_attack" },
      ];
    },
    code: "ARGUMENT_ATTACK_IN_OPENING",
    path: "arguments/prop_000a.md:attacks",
  },
  {
    name: "current_score disagrees with its own history",
    edit: (s) => {
      s.scores.prop_000a!.current_score = 0.9;
      s.frontmatter.cumulative_scores!.proposition.total = 0.9;
    },
    code: "SCORES_HISTORY_MISMATCH",
    path: "scores.json:prop_000a.current_score",
    says: "expected `current_score` to be the last score of its history, 0.3, found 0.9",
  },
  {
    name: "a rescore's previous_score is not the score before it",
    edit: (s) => {
      s.scores.opp_000a!.history.push({
        score: -0.1,
        reasoning: "rescored",
        scored_at: "2026-11-21T11:00:00.000Z",
        triggered_by: "exchange_1",
        previous_score: 0.5,
        diff: -0.6,
      });
      s.scores.opp_000a!.current_score = -0.1;
      s.frontmatter.cumulative_scores!.opposition.total = -0.1;
    },
    code: "SCORES_HISTORY_MISMATCH",
    path: "scores.json:opp_000a.history[1].previous_score",
  },
  {
    name: "a rescore's diff is not score - previous_score",
    edit: (s) => {
      s.scores.opp_000a!.history.push({
        score: -0.1,
        reasoning: "rescored",
        scored_at: "2026-11-21T11:00:00.000Z",
        triggered_by: "exchange_1",
        previous_score: -0.3,
        diff: 0.5,
      });
      s.scores.opp_000a!.current_score = -0.1;
      s.frontmatter.cumulative_scores!.opposition.total = -0.1;
    },
    code: "SCORES_HISTORY_MISMATCH",
    path: "scores.json:opp_000a.history[1].diff",
    says: "expected `diff` to be score - previous_score, 0.2, found 0.5",
  },
  {
    name: "scores.json lacks an argument of a judged exchange",
    edit: (s) => {
      delete s.scores.opp_000c;
    },
    code: "SCORES_MISSING",
    path: "scores.json:opp_000c",
    says: "exchange 0 was judged",
  },
  {
    name: "scores.json scores an argument whose exchange is still awaiting judgment",
    edit: (s) => {
      s.scores.prop_001 = {
        current_score: 0.4,
        history: [{ score: 0.4, reasoning: "early", scored_at: "2026-11-21T10:00:00.000Z" }],
      };
    },
    code: "SCORES_NOT_JUDGED",
    path: "scores.json:prop_001",
    says: "exchange 1 has not been judged",
  },
  {
    name: "cumulative_scores in debate.md disagree with scores.json",
    mutate: edit(DEBATE, "total: 0.3", "total: 3"),
    code: "CUMULATIVE_SCORES_MISMATCH",
    path: "debate.md:cumulative_scores.proposition",
  },
  {
    name: "current_exchange points past the arguments that exist",
    mutate: edit(DEBATE, "current_exchange: 1", "current_exchange: 3"),
    code: "ARGUMENTS_MISSING",
    path: "debate.md:current_exchange",
    says: "arguments/ lacks prop_002.md, opp_002.md, prop_003.md, opp_003.md",
  },
  {
    name: "a judged opening was deleted, with its score",
    edit: (s) => {
      s.arguments = s.arguments.filter((a) => a.frontmatter.id !== "opp_000b");
      delete s.scores.opp_000b;
      s.frontmatter.cumulative_scores!.opposition = { total: -0.5, count: 2 };
    },
    code: "ARGUMENTS_MISSING",
    path: "debate.md:current_exchange",
    says: "opp_000b.md",
  },

  // Planted secrets: quoted content is redacted before it is cut
  {
    name: "a key in broken YAML is not quoted",
    mutate: edit(DEBATE, "current_phase: awaiting_judgment", `current_phase: [${KEY}`),
    code: "FRONTMATTER_INVALID",
    path: "debate.md:(frontmatter)",
    secret: KEY,
  },
  {
    name: "a key across the 200-character cut of a quoted scores.json",
    mutate: async (dir) => writeFile(file(dir, SCORES), `{ "note": "${"n".repeat(170)} ${KEY}", oops }`),
    code: "SCORES_INVALID_JSON",
    path: "scores.json:(root)",
    secret: KEY,
  },
  {
    name: "a PEM key next to a NUL byte in an argument",
    mutate: async (dir) => writeFile(file(dir, "arguments/prop_001.md"), `${PEM}\n\u0000\n`),
    code: "FILE_BINARY",
    path: "arguments/prop_001.md:(file)",
    secret: PEM_BODY,
  },
  {
    name: "a key next to an invalid UTF-8 byte",
    mutate: async (dir) =>
      writeFile(
        file(dir, "arguments/opp_001.md"),
        Buffer.concat([Buffer.from(`---\ntoken: ${KEY}`), Buffer.from([0xff]), Buffer.from("\n---\n")]),
      ),
    code: "FILE_NOT_UTF8",
    path: "arguments/opp_001.md:(file)",
    secret: KEY,
  },
  {
    name: "a key in a debate.md body without a motion",
    mutate: edit(DEBATE, /# Motion\n\nThis house would test everything\./, `Notes: ${KEY}`),
    code: "MOTION_MISSING",
    path: "debate.md:(body)",
    secret: KEY,
  },
  {
    name: "a key as a bad phase value, quoted by the schema check",
    mutate: edit(DEBATE, "current_phase: awaiting_judgment", `current_phase: ${KEY}`),
    code: "DEBATE_FIELD_INVALID",
    path: "debate.md:current_phase",
    secret: KEY,
  },
];

let outside: string;
let cleanupOutside: () => Promise<void>;
beforeAll(async () => {
  ({ dir: outside, cleanup: cleanupOutside } = await makeTempDir("debatekit-outside-"));
  await writeFile(path.join(outside, "scores.json"), "{}\n");
});
afterAll(async () => {
  for (const server of sockets) server.close();
  await cleanupOutside();
});

describe("hostile folders: precise errors, nothing changed", () => {
  it("has at least 35 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(35);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, bad) => {
    const { dir, cleanup } = await makeTempDir();
    try {
      const state = sampleState();
      bad.edit?.(state);
      await writeStateFolder(dir, state, bad.style ?? "yaml");
      await bad.mutate?.(dir, outside);
      const before = { inside: await hashFolder(dir), outside: await hashFolder(outside) };
      const result = await readDebateFolder(dir);
      expect({ inside: await hashFolder(dir), outside: await hashFolder(outside) }).toEqual(before);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      const error = result.errors.find((e) => e.path === bad.path);
      expect(error, JSON.stringify(result.errors, null, 2)).toBeDefined();
      expect(error!.code).toBe(bad.code);
      const name = bad.path.slice(0, bad.path.indexOf(":"));
      expect(error!.message.startsWith(`${name}: `), error!.message).toBe(true);
      expect(error!.message.length).toBeLessThan(800);
      if (bad.says) expect(error!.message).toMatch(bad.says);
      if (bad.secret) {
        const all = JSON.stringify(result.errors);
        expect(pieces(bad.secret).filter((p) => all.includes(p))).toEqual([]);
      }
    } finally {
      await cleanup();
    }
  });
});

describe("a commit next to a hostile file", () => {
  it("replaces a FIFO named argument-graph.mmd instead of hanging on it", async () => {
    const { dir, cleanup } = await makeTempDir();
    try {
      await writeStateFolder(dir, sampleState());
      execFileSync("mkfifo", [file(dir, "argument-graph.mmd")]);
      const folder = await readDebateFolder(dir);
      if (!folder.ok) throw new Error(JSON.stringify(folder.errors));
      const judgment = {
        scores: [
          { argument_id: "prop_001", score: 0.2, reasoning: "a" },
          { argument_id: "opp_001", score: -0.2, reasoning: "b" },
        ],
      };
      const next = applyJudgment(folder.value.state, 1, judgment, "2026-11-24T01:00:00Z");
      if (!next.ok) throw new Error(JSON.stringify(next.errors));
      await commitStep(folder.value, next.value);
      expect(await readFile(file(dir, "argument-graph.mmd"), "utf8")).toContain("prop_001");
      expect((await readDebateFolder(dir)).ok).toBe(true);
    } finally {
      await cleanup();
    }
  }, 10_000);
});
