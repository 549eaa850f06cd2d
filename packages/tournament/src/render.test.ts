import { describe, expect, it } from "vitest";
import type { Leaderboard } from "./leaderboard.js";
import { renderLeaderboardHtml, renderLeaderboardMarkdown, renderRatingChart } from "./render.js";

const HOSTILE = '<img src=x onerror=alert(1)>"&';

function board(): Leaderboard {
  const players = ["alice", HOSTILE];
  return {
    id: "t",
    format: "crossfire",
    sideNames: { first: "proposer", second: "challenger" },
    counts: { total: 2, done: 2, failed: 0, remaining: 0, decided: 2 },
    spendUsd: 0,
    unreportedCalls: 0,
    ratings: players.map((name, i) => ({
      name,
      rating: 1050 - 100 * i,
      low: 903 - 100 * i,
      high: 1187 - 100 * i,
      games: 2,
      score: 2 - 2 * i,
    })),
    headToHead: {
      players,
      score: [
        [0, 2],
        [0, 0],
      ],
      games: [
        [0, 2],
        [2, 0],
      ],
    },
    sides: { first: { score: 1, games: 2 }, perPlayer: [] },
    judges: [],
    failed: [],
    debates: [],
    seed: 1,
    samples: 10,
  };
}

describe("the leaderboard page", () => {
  it("heads each heat-map row with the player's name, escaped, and keeps the numbers in the cells", () => {
    const html = renderLeaderboardHtml(board());
    expect(html).not.toContain("<img");
    expect(html).toContain('data-row="&#60;img src=x onerror=alert(1)&#62;&#34;&#38;"');
    // The winner's cell and the loser's differ in shade; both say their points.
    expect(html).toMatch(/data-column="&#60;img[^"]*" style="background:hsl\(210 70% 72%\)">2\/2</);
    expect(html).toMatch(/data-column="alice" style="background:hsl\(28 70% 72%\)">0\/2</);
  });

  it("draws the interval axis with round ticks that cover every interval", () => {
    const svg = renderRatingChart(board().ratings);
    const ticks = [...svg.matchAll(/class="tick-x"[^>]*>([^<]+)</g)].map((m) => Number(m[1]));
    expect(ticks).toEqual([800, 850, 900, 950, 1000, 1050, 1100, 1150, 1200]);
  });

  it("shows each debate's motion by its text, escaped and shortened at a word, whole in the page's tooltip", () => {
    const long = `${HOSTILE} | **This house** would ${"rewrite every service ".repeat(8)}in one weekend`;
    const lb: Leaderboard = {
      ...board(),
      debates: [
        {
          id: "d1",
          motion: "m01",
          motionText: long,
          first: "alice",
          second: "bob",
          judge: "j",
          status: "done",
        },
        {
          id: "d2",
          motion: "m02",
          motionText: "Short one?",
          first: "bob",
          second: "alice",
          judge: "j",
          status: "done",
        },
      ],
    };
    const md = renderLeaderboardMarkdown(lb);
    const row = md.split("\n").find((l) => l.includes("](debates/d1/"))!;
    const cell = row.split(" | ")[1]!;
    expect(cell.startsWith("m01: ")).toBe(true);
    expect(cell.endsWith("…")).toBe(true);
    expect(cell).not.toContain("<img");
    expect(cell.length).toBeLessThan(130);
    // Cut between words, not inside one.
    expect(cell).toMatch(/(service|every|rewrite|weekend|one|in)…$/);
    expect(md).toContain("| m02: Short one? |");
    const html = renderLeaderboardHtml(lb);
    expect(html).not.toContain("<img");
    expect(html).toContain(
      `title="&#60;img src=x onerror=alert(1)&#62;&#34;&#38; | **This house** would rewrite`,
    );
    expect(html).toContain(">m02: Short one?<");
  });
});
