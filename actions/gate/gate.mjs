#!/usr/bin/env node
// The script of the debatekit gate action (action.yml beside it): finds the pull request's range
// in the event payload, fetches what the checkout lacks, runs `debate gate` on it, writes the
// step's outputs, and posts one pull request comment (or updates its own: the marker, written by
// the token's login). It never fails the step itself: the action's last step exits with the
// gate's code, after the SARIF upload. No dependencies.
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";

const env = process.env;
const MARKER = "<!-- debatekit-gate -->";
const input = (name) => (env[`INPUT_${name.toUpperCase().replace(/-/g, "_")}`] ?? "").trim();
const log = (line) => process.stderr.write(`${line}\n`);
const output = (name, value) => {
  const line = `${name}=${String(value).replace(/[\r\n]+/g, " ")}\n`;
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, line);
  else process.stdout.write(line);
};
const git = (...args) =>
  execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
const tryGit = (...args) => {
  try {
    return git(...args);
  } catch {
    return undefined;
  }
};
const SHA = /^[0-9a-f]{40}$/;

/** The commit, fetched from origin when the checkout does not have it (shallow or single-branch checkouts). */
function ensureCommit(sha, refs) {
  if (tryGit("cat-file", "-e", `${sha}^{commit}`) !== undefined) return;
  for (const ref of [sha, ...refs]) {
    if (
      tryGit("fetch", "--no-tags", "--quiet", "origin", ref) !== undefined &&
      tryGit("cat-file", "-e", `${sha}^{commit}`) !== undefined
    )
      return;
  }
  throw new Error(`cannot fetch ${sha} from origin (tried ${[sha, ...refs].join(", ")})`);
}

/** The pull request's range: merge base of base and head .. head (what the pull request changes). */
function pullRequestRange() {
  const explicit = input("scope");
  if (explicit) return { scope: explicit };
  const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH ?? "", "utf8"));
  const pr = event.pull_request;
  if (!pr?.base?.sha || !pr?.head?.sha)
    throw new Error(`${env.GITHUB_EVENT_NAME ?? "this event"} has no pull_request: set the \`scope\` input`);
  const base = String(pr.base.sha);
  const head = String(pr.head.sha);
  if (!SHA.test(base) || !SHA.test(head))
    throw new Error("the event's base.sha / head.sha are not commit ids");
  ensureCommit(base, [`refs/heads/${pr.base.ref}`]);
  ensureCommit(head, [`refs/pull/${pr.number}/head`, `refs/heads/${pr.head.ref}`]);
  let mergeBase = tryGit("merge-base", base, head);
  if (!mergeBase && tryGit("rev-parse", "--is-shallow-repository") === "true") {
    tryGit("fetch", "--no-tags", "--quiet", "--unshallow", "origin");
    mergeBase = tryGit("merge-base", base, head);
  }
  return { scope: `range:${mergeBase ?? base}..${head}`, number: pr.number };
}

async function github(method, path, body) {
  const api = env.GITHUB_API_URL || "https://api.github.com";
  const res = await fetch(/^https?:\/\//.test(path) ? path : `${api}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${env.GITHUB_TOKEN}`,
      accept: "application/vnd.github+json",
      "x-github-api-version": "2022-11-28",
      "user-agent": "debatekit-gate",
      ...(body ? { "content-type": "application/json" } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status}`);
  return res.status === 204 ? undefined : res.json();
}

/**
 * The login the token acts as, which our comments carry as their author. GraphQL's `viewer` answers
 * for every token (`github-actions[bot]` for the workflow's GITHUB_TOKEN, which may not read
 * GET /user); GET /user is asked when GraphQL is not there. Undefined when neither answers.
 */
async function tokenLogin() {
  const graphql = env.GITHUB_GRAPHQL_URL || "/graphql";
  const viewer = await github("POST", graphql, { query: "query { viewer { login } }" }).catch(
    () => undefined,
  );
  const login = viewer?.data?.viewer?.login ?? (await github("GET", "/user").catch(() => undefined))?.login;
  return typeof login === "string" && login ? login : undefined;
}

/**
 * One comment per pull request: ours (the marker, written by the token's own login) is updated, else
 * one is added. A comment someone else wrote is never edited, marker or not: a pull request's author
 * could plant the marker to capture or hide the result.
 */
async function postComment(number, body) {
  const repo = env.GITHUB_REPOSITORY;
  const login = await tokenLogin();
  if (!login) log("::warning::debatekit gate: the token's login is unknown: a new comment is added");
  const comments = await github("GET", `/repos/${repo}/issues/${number}/comments?per_page=100`);
  const ours = comments.find(
    (c) => login && c.user?.login === login && typeof c.body === "string" && c.body.includes(MARKER),
  );
  if (ours) await github("PATCH", `/repos/${repo}/issues/comments/${ours.id}`, { body });
  else await github("POST", `/repos/${repo}/issues/${number}/comments`, { body });
  return ours ? "updated" : "created";
}

async function main() {
  const temp = env.RUNNER_TEMP || env.TMPDIR || "/tmp";
  const sarif = join(temp, "debatekit-gate.sarif");
  const comment = join(temp, "debatekit-gate.md");
  let code = 2;
  let number;
  try {
    const range = pullRequestRange();
    number = range.number;
    const args = ["gate", "--scope", range.scope, "--json", "--sarif", sarif, "--comment", comment];
    for (const [name, flag] of [
      ["policy", "--policy"],
      ["critic", "--critic"],
      ["judge", "--judge"],
      ["fallback-judge", "--fallback-judge"],
      ["intensity", "--intensity"],
      ["dir", "--dir"],
    ]) {
      if (input(name)) args.push(flag, input(name));
    }
    log(`debate ${args.join(" ")}`);
    const run = spawnSync(env.DEBATE_BIN || "debate", args, {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.error) throw new Error(`cannot run debate: ${run.error.message}`);
    code = run.status ?? 2;
    const result = JSON.parse(run.stdout || "{}");
    output("outcome", result.outcome ?? "undecided");
    output("reason", result.reason ?? `debate gate exited ${code}`);
    output("dir", result.dir ?? "");
    output("sarif-file", sarif);
    output("comment-file", comment);
  } catch (error) {
    code = 2;
    output("outcome", "undecided");
    output("reason", `undecided: ${error.message}`);
    log(`::error::debatekit gate: ${error.message}`);
  }
  output("exit-code", [0, 1, 2].includes(code) ? code : 2);
  if (input("comment") !== "false" && number !== undefined) {
    try {
      const body = readFileSync(comment, "utf8");
      log(`pull request comment ${await postComment(number, body)}`);
    } catch (error) {
      // A fork's read-only token cannot comment: the result stays in the step summary and the exit code.
      log(`::warning::debatekit gate: the pull request comment was not posted: ${error.message}`);
    }
  }
}

await main();
