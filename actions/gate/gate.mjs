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
// The checkout holds the pull request's files: no hook, fsmonitor or pager of its runs, and no call hangs.
const git = (...args) =>
  execFileSync(
    "git",
    ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "--no-pager", ...args],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 300_000,
      env: { ...env, GIT_TERMINAL_PROMPT: "0" },
    },
  ).trim();
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

// Characters a person does not see but a model reads (zero-width, bidirectional controls, the BOM,
// tag characters): the same set as the gate's own check of the code (apps/debate/src/gate/hidden-unicode.ts).
const HIDDEN =
  /\u034F|[\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0]|[\u{E0000}-\u{E007F}]/gu;
const codePoint = (c) => `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

/** The pull request's title and description lines that carry hidden characters, for the comment. */
function hiddenInPullRequest(pr) {
  const found = [];
  for (const [field, text] of [
    ["title", pr?.title],
    ["description", pr?.body],
  ]) {
    if (typeof text !== "string") continue;
    text.split(/\r?\n/).forEach((line, i) => {
      const chars = [...new Set([...line.matchAll(HIDDEN)].map((m) => codePoint(m[0])))];
      if (chars.length > 0)
        found.push(
          `> - pull request ${field}${field === "title" ? "" : `, line ${i + 1}`}: ${chars.join(", ")}`,
        );
    });
  }
  return found;
}

/** The comment with a caution added after its marker when the pull request's own text hides characters. */
function withPullRequestCaution(body, pr) {
  const found = hiddenInPullRequest(pr);
  if (found.length === 0) return body;
  const caution = `> [!CAUTION]\n> **Hidden Unicode** in the pull request's text: invisible or bidirectional-control characters, a known carrier of prompt injection (text a model reads but a person does not see):\n${found.join("\n")}`;
  return body.startsWith(MARKER)
    ? `${MARKER}\n\n${caution}${body.slice(MARKER.length)}`
    : `${caution}\n\n${body}`;
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
  return { scope: `range:${mergeBase ?? base}..${head}`, number: pr.number, pr };
}

/** One GitHub API call; the parsed answer, and the URL of its next page (the `Link` header's `rel="next"`). */
async function githubPage(method, path, body) {
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
  const next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
  return { data: res.status === 204 ? undefined : await res.json(), next };
}

async function github(method, path, body) {
  return (await githubPage(method, path, body)).data;
}

/** At most this many pages of comments are read (100 each): our comment is found on any of them. */
const MAX_PAGES = 50;

/** Every comment of the pull request, page after page (the API gives at most 100 at a time). */
async function allComments(repo, number) {
  const comments = [];
  let path = `/repos/${repo}/issues/${number}/comments?per_page=100`;
  for (let page = 0; path && page < MAX_PAGES; page++) {
    const { data, next } = await githubPage("GET", path);
    if (!Array.isArray(data)) throw new Error(`GET ${path}: not a list of comments`);
    comments.push(...data);
    path = next;
  }
  return comments;
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
  const comments = await allComments(repo, number);
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
  let pr;
  try {
    const range = pullRequestRange();
    number = range.number;
    pr = range.pr;
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
      const body = withPullRequestCaution(readFileSync(comment, "utf8"), pr);
      log(`pull request comment ${await postComment(number, body)}`);
    } catch (error) {
      // A fork's read-only token cannot comment: the result stays in the step summary and the exit code.
      log(`::warning::debatekit gate: the pull request comment was not posted: ${error.message}`);
    }
  }
}

await main();
