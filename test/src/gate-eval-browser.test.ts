import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { axeViolations, CHROMIUM, useChromium, watchPage } from "./browser.js";
import { repoRoot } from "./workspace.js";

// eval.html of the offline gate-evaluation example in a real headless Chromium: the figures as
// eval.md has them, no console error, no request, nothing wider than a phone, no axe-core
// violation; screenshots in test/.output/gate-eval/ (ignored by git).
const OUT = join(repoRoot, "test/.output/gate-eval");
const session = useChromium("gate-eval-browser.test.ts", OUT);
const run = promisify(execFile);

describe.skipIf(!CHROMIUM)("eval.html in headless Chromium", () => {
  it("the example's page at desktop and phone width: its figures, no error, no request, no axe violation", async () => {
    const dir = join(session.work, "example");
    await run(process.execPath, [join(repoRoot, "examples/gate-eval/run.mjs"), dir]);
    const file = join(dir, "cart.eval", "eval.html");
    for (const [label, viewport] of [
      ["desktop", { width: 1280, height: 900 }],
      ["phone", { width: 390, height: 844 }],
    ] as const) {
      // The page forbids every script (its CSP); axe-core is injected past it (bypassCSP).
      const page = await session.browser.newPage({ viewport, bypassCSP: true });
      const { errors, requests } = watchPage(page, file);
      await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
      expect(await page.locator("h2").allTextContents()).toEqual([
        "Labels",
        "block_on: [P1]",
        "block_on: [P1, P2]",
        "Judges and cost",
      ]);
      expect(await page.locator("p.note").textContent()).toContain("they measure the pipeline, not a model");
      const recall = page
        .locator("section")
        .nth(1)
        .locator("tr", { hasText: "recall (bad changes blocked)" });
      expect(await recall.locator("td").nth(1).textContent()).toBe("66.7% [20.8%, 93.9%] (2/3)");
      // (a string: the test package's types have no DOM)
      expect(
        await page.evaluate("document.documentElement.scrollWidth - window.innerWidth"),
      ).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(OUT, `eval-${label}.png`), fullPage: true });
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      await page.close();
    }
  }, 90_000);
});
