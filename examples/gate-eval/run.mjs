#!/usr/bin/env node
// The offline gate evaluation, end to end: a repository with real bug-introducing and fixing
// commits, the labelled set `debate gate eval build` makes of it, and `debate gate eval run` with
// http seats on a loopback model server (scripted answers: the figures measure the pipeline, not a
// model). Usage: node examples/gate-eval/run.mjs [work-folder]   (build the repository first: pnpm build)
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startModelServer } from "../../packages/model-server/dist/index.js";
import { makeCartRepo } from "./make-repo.mjs";
import { reply } from "./seats.mjs";

const bin = fileURLToPath(new URL("../../apps/debate/dist/bin.js", import.meta.url));
const work = process.argv[2] ?? mkdtempSync(join(tmpdir(), "gate-eval-"));
const debate = (...args) =>
  execFileSync(process.execPath, [bin, ...args], { cwd: work, stdio: ["ignore", "pipe", "inherit"] });

makeCartRepo(join(work, "cart"));
debate("gate", "eval", "build", "--repo", "cart", "--out", "cart.jsonl");
const server = await startModelServer(reply);
try {
  const seat = (model) => ({ adapter: "http", base_url: `${server.url}/v1`, model, timeout_ms: 30_000 });
  const policy = { critic: seat("critic"), judge: seat("judge"), author: seat("judge") };
  writeFileSync(join(work, "policy.json"), `${JSON.stringify(policy, null, 2)}\n`);
  // The server runs in this process: the evaluation runs beside it (execFile), never blocking it.
  await new Promise((done, fail) =>
    execFile(
      process.execPath,
      [bin, "gate", "eval", "run", "cart.jsonl", "--policy", "policy.json"],
      { cwd: work },
      (error, _out, err) => (error ? fail(new Error(err)) : done()),
    ),
  );
} finally {
  await server.close();
}
process.stdout.write(readFileSync(join(work, "cart.eval", "eval.md"), "utf8"));
