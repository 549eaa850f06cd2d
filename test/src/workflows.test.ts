import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { validateWorkflow } from "@action-validator/core";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { publishablePackages, repoRoot } from "./workspace.js";

// The parts of a GitHub workflow these checks read; the schema itself is the validator's job.
interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string | number | boolean>;
}
interface Job {
  if?: string;
  permissions?: Record<string, string>;
  env?: Record<string, string | number | boolean>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, { branches?: string[] } | null>;
  permissions?: Record<string, string>;
  env?: Record<string, string | number | boolean>;
  concurrency?: { group: string; "cancel-in-progress"?: boolean | string };
  jobs: Record<string, Job>;
}

function readText(path: string): string {
  return readFileSync(join(repoRoot, path), "utf8");
}

/** A workflow file of the repository, checked against GitHub's workflow schema, then parsed. */
function readWorkflow(name: string): Workflow {
  const text = readText(`.github/workflows/${name}`);
  expect(validateWorkflow(text).errors, `${name} against GitHub's workflow schema`).toEqual([]);
  return parse(text) as Workflow;
}

function steps(workflow: Workflow): Array<{ job: Job; step: Step }> {
  return Object.values(workflow.jobs).flatMap((job) => job.steps.map((step) => ({ job, step })));
}

/** The command the README's "Two commands" block says CI runs. */
function readmeTestCommand(): string {
  const readme = readText("README.md");
  const block = readme.slice(readme.indexOf("## Two commands")).match(/```sh\n([\s\S]*?)```/)?.[1] ?? "";
  const line = block.split("\n").find((l) => l.includes("what CI runs"));
  if (!line) throw new Error('README.md: the "Two commands" block names no command "(what CI runs)"');
  return line.slice(0, line.indexOf("#")).trim();
}

/** What `pnpm [run] <script> [args]` runs: the root package.json script, then the args; else the command. */
function resolveRootScript(command: string): string {
  const scripts: Record<string, string> = JSON.parse(readText("package.json")).scripts;
  const [, name = "", args = ""] = command.match(/^pnpm (?:run )?([\w:-]+)(.*)$/) ?? [];
  return scripts[name] ? scripts[name] + args : command;
}

describe(".github/workflows/ci.yml", () => {
  it("runs on every pull request and every push to main", () => {
    const ci = readWorkflow("ci.yml");
    expect(Object.keys(ci.on).sort()).toEqual(["pull_request", "push"]);
    expect(ci.on.push?.branches).toEqual(["main"]);
  });

  it("runs exactly the README's test command, with CI set and turbo's telemetry off", () => {
    const ci = readWorkflow("ci.yml");
    const command = readmeTestCommand();
    expect(command).toBe("npm test");
    const runs = steps(ci).filter(({ step }) => step.run !== undefined);
    // One run step only: anything else CI ran would be a step the README's command does not cover.
    expect(runs.map(({ step }) => step.run?.trim())).toEqual([command]);
    const [{ job, step }] = runs as [{ job: Job; step: Step }];
    const env = { ...ci.env, ...job.env, ...step.env };
    expect(String(env.CI)).toBe("true");
    expect(String(env.TURBO_TELEMETRY_DISABLED)).toBe("1");
  });

  it("reads the repository only, and a newer push to a pull request cancels the older run", () => {
    const ci = readWorkflow("ci.yml");
    expect(ci.permissions).toEqual({ contents: "read" });
    expect(ci.concurrency?.group).toContain("github.ref");
    expect(String(ci.concurrency?.["cancel-in-progress"])).toContain("pull_request");
  });

  it("keys its caches on files that exist, the pinned CLIs on their installer", () => {
    const keyed = [...readText(".github/workflows/ci.yml").matchAll(/hashFiles\('([^']+)'\)/g)].map(
      (m) => m[1]!,
    );
    expect(keyed).toContain("test/src/cli/install-clis.mjs");
    for (const path of keyed) expect(existsSync(join(repoRoot, path)), path).toBe(true);
  });
});

describe(".github/workflows/release.yml", () => {
  /** The release workflow and its changesets/action step. */
  function readRelease(): { release: Workflow; changesets: { job: Job; step: Step } | undefined } {
    const release = readWorkflow("release.yml");
    const changesets = steps(release).find(({ step }) => step.uses?.startsWith("changesets/action@"));
    return { release, changesets };
  }

  it("runs on pushes to main only, one run at a time, never cancelled halfway", () => {
    const { release } = readRelease();
    expect(release.on).toEqual({ push: { branches: ["main"] } });
    expect(release.concurrency?.["cancel-in-progress"]).toBe(false);
  });

  it("publishes from the repository the packages name, never from a fork", () => {
    const { release } = readRelease();
    const urls = new Set(
      publishablePackages().map(({ manifest }) => (manifest.repository as { url?: string })?.url),
    );
    expect([...urls]).toEqual(["git+https://github.com/debatekit/debatekit.git"]);
    const [slug] = [...urls].map((url) => url?.match(/github\.com\/(.+)\.git$/)?.[1]);
    for (const job of Object.values(release.jobs)) {
      expect(job.if).toBe(`github.repository == '${slug}'`);
    }
  });

  it("uses changesets/action for the version pull request, then builds and publishes with changesets", () => {
    const { changesets } = readRelease();
    expect(changesets?.step.uses).toMatch(/^changesets\/action@v\d+$/);
    const inputs = changesets?.step.with ?? {};
    expect(resolveRootScript(inputs.version ?? "")).toBe("changeset version");
    // changeset publish (not pnpm -r publish) prints the "New tag:" lines the action reads to tag,
    // make GitHub releases and set its `published` output.
    expect(resolveRootScript(inputs.publish ?? "")).toMatch(
      /^turbo run build(?: \S+)* && changeset publish$/,
    );
  });

  it("publishes with npm provenance: an OIDC token, and provenance on for every public package", () => {
    const { release, changesets } = readRelease();
    for (const job of Object.values(release.jobs)) {
      expect({ ...release.permissions, ...job.permissions }).toMatchObject({
        contents: "write",
        "pull-requests": "write",
        "id-token": "write",
      });
    }
    const env = { ...release.env, ...changesets?.job.env, ...changesets?.step.env };
    expect(String(env.NPM_CONFIG_PROVENANCE)).toBe("true");
    for (const { manifest } of publishablePackages()) {
      expect(manifest.publishConfig, manifest.name).toEqual({ access: "public", provenance: true });
    }
  });
});
