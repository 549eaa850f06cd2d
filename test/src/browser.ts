import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

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

/**
 * One headless Chromium and one temp folder for a test file: checks for Chromium (requireChromium),
 * launches it before the file's tests with `out` (its screenshots' folder) created, and closes and
 * removes both after them. The fields are set once the file's tests run.
 */
export function useChromium(file: string, out: string): { browser: Browser; work: string } {
  requireChromium(file);
  const session = { browser: undefined as unknown as Browser, work: "" };
  beforeAll(async () => {
    if (!CHROMIUM) return;
    session.work = await mkdtemp(join(tmpdir(), `${file.replace(/\.test\.ts$/, "")}-`));
    await mkdir(out, { recursive: true });
    session.browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  });
  afterAll(async () => {
    await session.browser?.close();
    if (session.work) await rm(session.work, { recursive: true, force: true });
  });
  return session;
}

/** Collects what a page loaded from `file` must not do: console errors, page errors, and requests for anything else. */
export function watchPage(page: Page, file: string): { errors: string[]; requests: string[] } {
  const seen = { errors: [] as string[], requests: [] as string[] };
  const self = pathToFileURL(file).href;
  page.on("console", (m) => {
    if (m.type() === "error") seen.errors.push(m.text());
  });
  page.on("pageerror", (e) => seen.errors.push(e.message));
  page.on("request", (r) => {
    if (r.url() !== self) seen.requests.push(r.url());
  });
  return seen;
}
