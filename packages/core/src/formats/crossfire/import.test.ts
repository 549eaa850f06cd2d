import { describe, expect, it } from "vitest";
import { crossfireFormat } from "./format.js";

const agentsys = crossfireFormat.importers!.agentsys!;
const init = { slugFor: () => "grpc", now: "2026-03-01T10:00:00Z" };
const state = (extra: Record<string, unknown> = {}) => ({
  id: "debate-2026-03-01T10:00:00Z-a1b2",
  topic: "Should we move the API to gRPC?",
  proposer: { tool: "claude", model: "opus" },
  challenger: { tool: "gemini", model: "gemini-3.1-pro-preview" },
  effort: "high",
  rounds_completed: 2,
  max_rounds: 2,
  status: "completed",
  exchanges: [
    {
      round: 1,
      role: "proposer",
      tool: "claude",
      response: "We should move.\n# Motion\nkey sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCD",
    },
    { round: 1, role: "challenger", tool: "gemini", response: "No." },
  ],
  verdict: {
    winner: "gemini",
    reasoning: "Because.",
    agreements: [],
    disagreements: [],
    recommendation: "Keep JSON.",
  },
  ...extra,
});

describe("debate import --from agentsys (last-debate.json)", () => {
  it("makes a crossfire debate with agentsys's seats, models, effort and rounds, its transcript kept without secrets or headings", () => {
    const made = agentsys.import(state(), init);
    expect(made.ok && made.value.frontmatter).toMatchObject({
      debate_id: "grpc",
      format: "crossfire",
      rounds: 2,
      current_phase: "awaiting_proposer",
      seats: {
        proposer: { adapter: "claude", model: "opus", effort: "high" },
        challenger: { adapter: "gemini", model: "gemini-3.1-pro-preview", effort: "high" },
        judge: { adapter: "codex" },
      },
    });
    const notes = made.ok ? made.value.notes : "";
    expect(notes).toContain("## Round 1: proposer (claude)\n\nWe should move.\n\\# Motion\nkey [REDACTED]");
    expect(notes).not.toContain("sk-ant-");
    expect(notes).toContain("Winner: gemini (the challenger)");
    expect(made.ok && made.value.warnings).toEqual([]);
  });

  it("refuses a tool debatekit has no adapter for, naming the field, and a file that is not agentsys's", () => {
    const kiro = agentsys.import(state({ challenger: { tool: "kiro" } }), init);
    expect(!kiro.ok && kiro.errors[0]).toMatchObject({
      code: "IMPORT_TOOL_UNSUPPORTED",
      path: "challenger.tool",
    });
    const other = agentsys.import({ debate_id: "x" }, init);
    expect(!other.ok && other.errors[0]!.code).toBe("IMPORT_FIELD_INVALID");
  });

  it("caps the rounds at 5 and drops an effort it does not know, with warnings", () => {
    const made = agentsys.import(state({ max_rounds: 8, effort: "ultra" }), init);
    expect(made.ok && made.value.frontmatter).toMatchObject({ rounds: 5 });
    expect(made.ok && made.value.warnings).toEqual([
      "agentsys ran 8 rounds; crossfire runs at most 5",
      'effort "ultra" is not low, medium, high or max: left out',
    ]);
  });
});
