// Writes a small program's history into a new git repository: three commits that introduce real
// bugs, the three commits that fix them (their messages say so), and three ordinary changes.
// `debate gate eval build` finds the fixes and blames them on the changes that wrote the bugs.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const total = [
  "export function total(items) {",
  "  let sum = 0;",
  "  for (let i = 0; i < items.length; i++) sum += items[i].price;",
  "  return sum;",
  "}",
];
// Each bug sits on a known line of cart.js: discount on line 7, cents on 10, count on 14.
const discount = (body) => ["export function discounted(items, discount) {", body, "}"];
const cents = (body) => ["export function cents(amount) {", body, "}"];
const count = (start) => [
  "export function count(items) {",
  "  let n = 0;",
  `  for (let i = ${start}; i < items.length; i++) n += items[i].quantity;`,
  "  return n;",
  "}",
];
const bugs = {
  discount: "  return total(items) * discount;",
  cents: "  return Math.floor(amount * 100) / 100;",
};
const fixed = {
  discount: "  return total(items) * (1 - discount);",
  cents: "  return Math.round(amount * 100) / 100;",
};

/** The history, oldest first: a commit message and the files it writes. */
const history = (lines) => [
  ["cart: total of the items", { "cart.js": lines(total) }],
  ["cart: a tax rate", { "tax.js": "export const TAX_RATE = 0.2;\n" }],
  ["cart: apply a discount", { "cart.js": lines(total, discount(bugs.discount)) }],
  ["docs: how to use the cart", { "README.md": "# cart\n\n`total(items)` sums the prices.\n" }],
  ["cart: round to cents", { "cart.js": lines(total, discount(bugs.discount), cents(bugs.cents)) }],
  [
    "Fixes #1: a discount reduces the total",
    { "cart.js": lines(total, discount(fixed.discount), cents(bugs.cents)) },
  ],
  [
    "cart: free shipping over 50",
    { "shipping.js": "export function shipping(amount) {\n  return amount > 50 ? 0 : 5;\n}\n" },
  ],
  [
    "cart: count the items",
    { "cart.js": lines(total, discount(fixed.discount), cents(bugs.cents), count(1)) },
  ],
  [
    "fix: round cents half up (closes #2)",
    { "cart.js": lines(total, discount(fixed.discount), cents(fixed.cents), count(1)) },
  ],
  [
    "fix: count the first item too",
    { "cart.js": lines(total, discount(fixed.discount), cents(fixed.cents), count(0)) },
  ],
];

/** Creates the repository at `dir` (a new folder) and returns its commit ids by message. */
export function makeCartRepo(dir) {
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env, GIT_AUTHOR_NAME: "cart", GIT_AUTHOR_EMAIL: "cart@example.com" };
  Object.assign(env, { GIT_COMMITTER_NAME: "cart", GIT_COMMITTER_EMAIL: "cart@example.com" });
  const git = (...args) => execFileSync("git", args, { cwd: dir, env }).toString().trim();
  git("init", "-q", "-b", "main");
  const commits = {};
  history((...parts) => `${parts.flat().join("\n")}\n`).forEach(([message, files], i) => {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    git("add", "-A");
    // Fixed dates: the same repository, the same commit ids, every time.
    const date = `2026-01-${String(i + 1).padStart(2, "0")}T12:00:00Z`;
    execFileSync("git", ["commit", "-q", "-m", message], {
      cwd: dir,
      env: { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
    commits[message] = git("rev-parse", "HEAD");
  });
  return commits;
}
