// Child process of the skills benchmark: loads a skills tree and times the FIRST selection in a
// fresh process (no encoder, no memo). Prints one JSON line. Usage:
//   node skills-cold.js <root> <budget> <"warm-encoder"|"cold-encoder"> [module]
// `module` (default @debatekit/skills) lets the same script time an older build for a before/after.
import { performance } from "node:perf_hooks";

const [root, budgetArg, encoderArg, modulePath = "@debatekit/skills"] = process.argv.slice(2);
if (!root || !budgetArg || !encoderArg)
  throw new Error("usage: skills-cold <root> <budget> <encoder> [module]");
const skillsModule = (await import(modulePath)) as typeof import("@debatekit/skills");
const { skills } = await skillsModule.loadSkills([root]);
let encoderMs = 0;
if (encoderArg === "warm-encoder") {
  const start = performance.now();
  skillsModule.countTokens("build the encoder before timing the selection");
  encoderMs = performance.now() - start;
}
const query = {
  text:
    "This house would rewrite the billing API in Rust: the benchmark evidence on p99 latency and memory " +
    "outweighs the migration cost and risk, given our test coverage and the code review load.",
  role: "judge" as const,
  budgetTokens: Number(budgetArg),
};
const start = performance.now();
const selection = skillsModule.selectSkills(skills, query);
const selectMs = performance.now() - start;
const matched = selection.chosen.length + selection.dropped.length;
console.log(JSON.stringify({ encoderMs, selectMs, matched, chosen: selection.chosen.length }));
