// The scripted critic and judge the offline example's http seats talk to (a loopback model server):
// the critic reads the change's added lines and raises what it is scripted to raise. It catches the
// discount bug (P1) and the rounding bug (P2), misses the counting bug, and wrongly flags the free
// shipping change (P1): the figures then have something to show.
const clean = { findings: [], recommendation: "A", agree: true };
const critiques = [
  {
    added: /^\+\s*return total\(items\) \* discount;/m,
    finding: {
      severity: "P1",
      title: "The discount multiplies the total instead of reducing it",
      detail: "discounted(items, 0.1) returns a tenth of the total.",
      evidence: { file: "cart.js", line: 7, quote: "total(items) * discount" },
    },
  },
  {
    added: /^\+\s*return Math\.floor\(amount \* 100\)/m,
    finding: {
      severity: "P2",
      title: "Rounding down loses cents",
      detail: "cents(0.295) returns 0.29.",
      evidence: { file: "cart.js", line: 10, quote: "Math.floor(amount * 100)" },
    },
  },
  {
    added: /^\+\s*return amount > 50 \? 0 : 5;/m,
    finding: {
      severity: "P1",
      title: "Free shipping starts above 50, not at 50",
      detail: "An order of exactly 50 pays shipping.",
      evidence: { file: "shipping.js", line: 2, quote: "amount > 50" },
    },
  },
];

function critic(prompt) {
  const found = critiques.filter((c) => c.added.test(prompt)).map((c) => c.finding);
  return found.length === 0 ? clean : { findings: found, recommendation: "B", agree: false };
}

function judge(prompt) {
  // A finding to classify is listed as `r01-f1 [P1] ...` (the template's own example names r01-f1 too).
  if (!/r01-f1 \[P\d\]/.test(prompt))
    return { classifications: [], recommendation: "A", reasons: ["Nothing to fix."] };
  // Every finding is held valid; only a P2 lets the change be kept.
  const minor = prompt.includes("Rounding down loses cents");
  return {
    classifications: [
      { finding_id: "r01-f1", verdict: "valid", reasoning: "The quoted line does what the finding says." },
    ],
    recommendation: minor ? "A" : "B",
    reasons: [
      minor ? "A valid P2: worth fixing, not worth blocking." : "A valid P1: the change must not land as is.",
    ],
  };
}

/** The loopback model server's reply: the seat is chosen by the model name in the policy. */
export function reply(request) {
  const text = request.allText;
  if (request.model === "critic") return JSON.stringify(critic(text));
  if (request.model === "judge") return JSON.stringify(judge(text));
  return "?";
}
