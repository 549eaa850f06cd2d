import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ActionContext } from "./context.js";
import { createDebate } from "./create.js";
import { createReview } from "./review.js";

let work: string;
let ctx: ActionContext;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), "actions-create-"));
  // No user config: the config home is the temp folder.
  ctx = { cwd: work, env: { HOME: work, XDG_CONFIG_HOME: join(work, ".config") } };
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("createDebate", () => {
  it("returns the folder, its id and format, and the warnings the format gave, printing nothing", async () => {
    const made = await createDebate(ctx, {
      format: "crossfire",
      motion: "gRPC or REST for the public API",
      seats: { proposer: "claude", challenger: "codex", judge: "claude" },
      defines: ["REST=JSON over HTTP"],
    });
    expect(made).toEqual({
      dir: join(work, "debates", "grpc-or-rest-for-the-public-api"),
      debateId: "grpc-or-rest-for-the-public-api",
      format: "crossfire",
      warnings: [
        expect.stringContaining("the judge (claude) is the proposer's own adapter, model and endpoint"),
      ],
    });
    const text = await readFile(join(made.dir, "debate.md"), "utf8");
    expect(text).toContain("- **REST**: JSON over HTTP");
  });

  it("takes seats and the parent folder the input leaves out from the project's config file", async () => {
    await writeFile(
      join(work, ".debatekitrc.json"),
      JSON.stringify({
        seats: { proposition: "manual", opposition: "manual", judge: "manual" },
        dir: "mine",
      }),
    );
    const made = await createDebate(ctx, { format: "formal", motion: "This house would write tests first" });
    expect(made.dir).toBe(join(work, "mine", "write-tests-first"));
    expect(await readFile(join(made.dir, "debate.md"), "utf8")).toContain("adapter: manual");
  });

  it("refuses a seat the format does not have, naming the ones it takes, and writes nothing", async () => {
    await expect(
      createDebate(ctx, { format: "formal", motion: "m", seats: { proposer: "claude" } }),
    ).rejects.toThrow(
      "--proposer is not an option of the formal format (it takes --proposition, --opposition, --judge, --exchanges)",
    );
  });
});

describe("createReview", () => {
  it("snapshots a text into a review folder and returns its target and rounds", async () => {
    const made = await createReview(ctx, { text: "# Plan\n\nShip it on Friday.\n", critic: "codex" });
    expect(made).toMatchObject({
      dir: join(work, "debates", "review-text"),
      debateId: "review-text",
      format: "review",
      target: "proposal",
      origin: "text",
      changed: [],
      warnings: [],
    });
    expect(made.frontmatter.max_rounds).toBe(3);
    expect(await readFile(join(made.dir, "artifact", "v1.md"), "utf8")).toContain("Ship it on Friday.");
  });
});
