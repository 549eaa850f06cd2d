import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/** Debian's Chromium (installed by scripts/install-chromium.mjs), or undefined. */
export const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

/** In CI a missing Chromium is an error; elsewhere the browser tests are skipped with a hint. */
export function requireChromium(file: string): void {
  if (CHROMIUM) return;
  if (process.env.CI) throw new Error("CI: Chromium is missing; scripts/install-chromium.mjs installs it");
  console.warn(`${file}: skipped, no Chromium (sudo apt-get install -y chromium)`);
}

const axeSource = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** axe-core's violations on the page, as `id (nodes)` strings. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: await readFile(axeSource, "utf8") });
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: Array<{ id: string; nodes: unknown[] }> }> };
      }
    ).axe;
    return (await axe.run()).violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
}
