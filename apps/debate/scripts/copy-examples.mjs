// Copies the repository's offline examples (every examples/<name>/, each with its example.json) into
// dist/examples/, so the published package carries them: `debate example` works from any folder.
import { cp, readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const source = fileURLToPath(new URL("../../../examples/", import.meta.url));
const target = fileURLToPath(new URL("../dist/examples/", import.meta.url));
const isFile = (path) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

await rm(target, { recursive: true, force: true });
for (const entry of await readdir(source, { withFileTypes: true })) {
  const from = join(source, entry.name);
  if (!entry.isDirectory()) continue;
  if (!(await isFile(join(from, "example.json"))))
    throw new Error(
      `examples/${entry.name} has no example.json (what \`debate example\` lists and prints next)`,
    );
  // An example that needs this repository (its build, its scripted model server) stays in it.
  const manifest = JSON.parse(await readFile(join(from, "example.json"), "utf8"));
  if (manifest.ships === false) continue;
  // Leftovers of a run in place (lock, journal) and helper scripts are not part of the example.
  await cp(from, join(target, entry.name), {
    recursive: true,
    filter: (src) => !src.includes(`${join(from, ".debate")}`) && !src.endsWith(".mjs"),
  });
}
