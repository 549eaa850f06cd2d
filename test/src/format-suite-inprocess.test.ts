import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { findFormat, registerFormat } from "@debatekit/core";
import { type ReplayLine, replayAnswers, testFormat } from "@debatekit/core/testing";
import { readDebateFolder } from "@debatekit/files";
import { describe } from "vitest";
import { repoRoot } from "./workspace.js";

// The shipped conformance suite (`@debatekit/core/testing`), in process, exactly as a format's own
// test file runs it: every built-in on its offline example's recorded answers, and the outside toy
// format (test/formats/toy) loaded from its module, as a config file would load it.

/** The example folder's committed state and its replay file, as the `replay` seats would answer. */
async function exampleScript(path: string) {
  const dir = join(repoRoot, "examples", path);
  const read = await readDebateFolder(dir);
  if (!read.ok) throw new Error(`${dir}: ${read.errors.map((e) => e.message).join("; ")}`);
  const lines = (await readFile(join(dir, "replay.jsonl"), "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as ReplayLine);
  return { start: read.value.state, answer: replayAnswers(lines) };
}

for (const [name, example] of [
  ["formal", "ai-review-gate"],
  ["crossfire", "crossfire-grpc"],
  ["review", "review-sum/redis"],
] as const) {
  testFormat(findFormat(name)!, await exampleScript(example));
}

const toyModule = join(repoRoot, "test/formats/toy/index.mjs");
// Registered as the CLI registers a config file's format, so files can read the toy's example folder.
const toy = registerFormat(((await import(pathToFileURL(toyModule).href)) as { default: unknown }).default);
if (!toy.ok) throw new Error(`${toyModule}: ${toy.errors.map((e) => e.message).join("; ")}`);
const toyExample = await exampleScript("../test/formats/toy/example");
testFormat(toy.value, toyExample);

// As docs/architecture.md shows an outside author's test file: a new debate from `init`, not a folder.
describe("an outside format's test file, as the docs show it", () => {
  testFormat(toy.value, {
    init: {
      slug: "tabs",
      seats: { pro: "replay", con: "replay", judge: "replay" },
      length: 2,
      motion: "Tabs are better than spaces",
    },
    answer: toyExample.answer,
  });
});
