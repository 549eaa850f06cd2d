import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

// `debate mcp` as an agent meets it: the built binary in its own process, spoken to over stdio by
// the official SDK's client. Seats are `manual`, answered through the MCP tool with the example
// debate's recorded answers, so a whole formal debate runs through the tools and nothing else.
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const recorded = join(repoRoot, "examples/ai-review-gate/replay.jsonl");

let work: string;
let client: Client;
let answers: Map<string, string>;
const progressOnWire: Array<{ progress: number; message?: string }> = [];

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }> };

async function call(name: string, args: Record<string, unknown>, onprogress?: (p: unknown) => void) {
  const result = (await client.callTool(
    { name, arguments: args },
    CallToolResultSchema,
    onprogress ? { onprogress, timeout: 60_000 } : { timeout: 60_000 },
  )) as ToolResult;
  return result;
}

function json(result: ToolResult): Record<string, unknown> {
  return JSON.parse(result.content[0]!.text!) as Record<string, unknown>;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "mcp-stdio-"));
  const lines = (await readFile(recorded, "utf8")).trim().split("\n");
  answers = new Map(
    lines.map((l) => {
      const e = JSON.parse(l) as { exchange: number; role: string; text: string };
      return [`${e.exchange}-${e.role}`, e.text];
    }),
  );
  client = new Client({ name: "debatekit-test", version: "0.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, "mcp", "--dir", "debates"],
    cwd: work,
    env: { ...(process.env as Record<string, string>), NO_COLOR: "1" },
    stderr: "pipe",
  });
  await client.connect(transport);
  // The SDK's client hands a progress notification to its handler a microtask later but settles the
  // request at once, so when the notifications and the result come in one read (a busy machine) it
  // drops them as "unknown token". The server's notifications are recorded as they arrive instead.
  const deliver = transport.onmessage!;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ("method" in message && message.method === "notifications/progress")
      progressOnWire.push(message.params as { progress: number; message?: string });
    deliver(message);
  };
});
afterAll(async () => {
  await client?.close();
  await rm(work, { recursive: true, force: true });
});

describe("debate mcp over stdio", () => {
  it("offers the six tools and the file resources", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "debate_answer",
      "debate_new",
      "debate_read",
      "debate_report",
      "debate_run",
      "debate_status",
    ]);
    const create = tools.find((t) => t.name === "debate_new")!;
    expect(Object.keys(create.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["format", "motion", "seats", "length", "text", "scope"]),
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["debate://{debate}/{+path}"]);
  });

  it("runs a whole formal debate through the tools: create, advance with progress, answer, read, report", async () => {
    const made = await call("debate_new", {
      motion: "This house would require a second AI model's review before merging AI-written code.",
      seats: { proposition: "manual", opposition: "manual", judge: "manual" },
      length: 1,
      slug: "second-review",
    });
    expect(made.isError).toBeFalsy();
    expect(json(made)).toMatchObject({ debate: "second-review", format: "formal", next: "debate_run" });
    expect(json(made).files).toContain("debate.md");

    // Asked for with a handler (so the request carries a progress token), read off the wire.
    progressOnWire.length = 0;
    const first = json(await call("debate_run", { debate: "second-review", until: "step" }, () => undefined));
    const progress = [...progressOnWire];
    expect(first.status).toBe("waiting");
    expect((first.pending as Array<{ role: string }>).map((p) => p.role).sort()).toEqual([
      "opposition",
      "proposition",
    ]);
    // One notification per progress line of the run, numbered upwards.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
    expect(
      progress.some((p) =>
        /proposition \(manual\) waiting for inbox\/e000-proposition\.md/.test(p.message ?? ""),
      ),
    ).toBe(true);

    // Several seats wait: the tool asks which.
    const ambiguous = await call("debate_answer", { debate: "second-review", answer: "{}" });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.content[0]!.text).toMatch(/several seats are waiting .*say which with role/);

    let steps = 0;
    for (;;) {
      const status = json(await call("debate_status", { debate: "second-review" }));
      const pending = (status.pending ?? []) as Array<{ role: string; prompt: string }>;
      if (pending.length === 0) {
        expect(status.phase).toBe("complete");
        break;
      }
      expect(++steps).toBeLessThan(10);
      for (const seat of pending) {
        const prompt = await client.readResource({ uri: `debate://second-review/${seat.prompt}` });
        expect((prompt.contents[0] as { text: string }).text).toMatch(/JSON/);
        const exchange = Number(/^prompts\/e(\d+)/.exec(seat.prompt)![1]);
        const answer = answers.get(`${exchange}-${seat.role}`)!;
        const last = seat === pending.at(-1);
        const result = await call("debate_answer", {
          debate: "second-review",
          role: seat.role,
          answer,
          until: last ? "end" : "none",
        });
        expect(result.isError).toBeFalsy();
        expect(json(result).wrote).toMatch(new RegExp(`^inbox/e\\d{3}-${seat.role}\\.md$`));
      }
    }

    const read = json(await call("debate_read", { debate: "second-review", only: "arguments/prop_000" }));
    const args = read.arguments as Array<{ frontmatter: { id: string; title: string } }>;
    expect(args.map((a) => a.frontmatter.id)).toEqual(["prop_000a", "prop_000b", "prop_000c"]);
    expect(args[0]!.frontmatter.title).toBe("A second model breaks correlated blind spots");
    expect(Object.keys(read.scores as object)).toContain("prop_000a");

    const report = await call("debate_report", { debate: "second-review" });
    expect(report.isError).toBeFalsy();
    expect(json(report)).toMatchObject({ debate: "second-review", format: "formal" });
    expect(report.content[1]!.text).toMatch(/^# /);
    const files = await readdir(join(work, "debates", "second-review"));
    expect(files).toEqual(expect.arrayContaining(["report.md", "report.html", "scores.json"]));

    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining(["debate://second-review/debate.md", "debate://second-review/report.html"]),
    );
    expect(uris.some((u) => u.includes("/.debate/"))).toBe(false);
    const md = await client.readResource({ uri: "debate://second-review/debate.md" });
    const debateMd = (md.contents[0] as { text: string }).text;
    expect(debateMd).toMatch(/^current_exchange: 1$/m);
    expect(debateMd).toMatch(/^ {4}total: 0\.15$/m);
  });

  it("creates crossfire and review debates", async () => {
    const cross = await call("debate_new", {
      format: "crossfire",
      motion: "Should we move the API to gRPC?",
      seats: { proposer: "codex", challenger: "gemini" },
      length: 3,
    });
    expect(cross.isError).toBeFalsy();
    const crossDebate = String(json(cross).debate);
    const text = await readFile(join(work, "debates", crossDebate, "debate.md"), "utf8");
    expect(text).toMatch(/^format: crossfire$/m);
    expect(text).toMatch(/^rounds: 3$/m);

    const review = await call("debate_new", {
      format: "review",
      text: "# Proposal\n\nCache every session token in localStorage so the page loads faster.\n",
      seats: { critic: "codex", author: "claude" },
      intensity: "quick",
    });
    expect(review.isError).toBeFalsy();
    const made = json(review);
    expect(made).toMatchObject({ format: "review", target: "proposal" });
    expect(made.files).toContain("artifact/v1.md");
    const status = json(await call("debate_status", {}));
    expect((status.debates as Array<{ debate: string }>).map((d) => d.debate)).toEqual(
      expect.arrayContaining([crossDebate, String(made.debate)]),
    );
  });

  it("refuses what does not belong: unknown seats, option-like values, paths and links out of a debate", async () => {
    const badSeat = await call("debate_new", { motion: "x y z", seats: { dir: "/etc" } });
    expect(badSeat.isError).toBe(true);
    expect(badSeat.content[0]!.text).toMatch(/seats\.dir: the formal format has no seat "dir"/);
    const optionLike = await call("debate_new", { motion: "x y z", seats: { judge: "--dir=/etc" } });
    expect(optionLike.content[0]!.text).toMatch(/seats\.judge: "--dir=\/etc" is not an adapter name/);
    const outside = await call("debate_status", { debate: "../.." });
    expect(outside.isError).toBe(true);
    expect(outside.content[0]!.text).toMatch(/^DEBATE_NAME_INVALID/);
    const reviewOut = await call("debate_new", { format: "review", path: "../../etc/passwd" });
    expect(reviewOut.content[0]!.text).toMatch(/^PATH_ESCAPE/);

    const dir = join(work, "debates", "second-review");
    const secret = join(work, "secret.txt");
    await writeFile(secret, "outside the debate\n");
    await mkdir(join(dir, "notes"), { recursive: true });
    await symlink(secret, join(dir, "notes", "link.md"));
    for (const uri of [
      "debate://second-review/notes/link.md",
      "debate://second-review/..%2F..%2Fsecret.txt",
      "debate://second-review/.debate/lock",
      "debate://nope/debate.md",
    ]) {
      await expect(client.readResource({ uri }), uri).rejects.toThrow(
        /PATH_ESCAPE|engine's own files|DEBATE_NOT_FOUND|no debate\.md|leads outside|\.\./,
      );
    }
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).not.toContain("debate://second-review/notes/link.md");
  });
});

describe("debate mcp when its input ends at once", () => {
  it("answers a tool call sent just before stdin closes, then exits", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcp-eof-"));
    try {
      const lines = [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "t", version: "0" },
          },
        },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: {
            name: "debate_new",
            arguments: {
              motion: "This house would answer before hanging up",
              seats: { proposition: "manual", opposition: "manual", judge: "manual" },
              slug: "eof",
            },
          },
        },
      ];
      // The whole conversation in one write, and stdin closed right after it.
      const ran = spawnSync(process.execPath, [bin, "mcp", "--dir", "debates"], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: "1", HOME: dir },
        input: lines.map((l) => `${JSON.stringify(l)}\n`).join(""),
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(ran.status, ran.stderr).toBe(0);
      const replies = ran.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { id?: number; result?: { isError?: boolean } });
      const call = replies.find((r) => r.id === 2);
      expect(call, ran.stdout).toBeDefined();
      expect(call!.result?.isError).toBeFalsy();
      expect((await readdir(join(dir, "debates"))).includes("eof")).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
