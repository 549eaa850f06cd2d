// Runs every benchmark (or the ones named on the command line: `pnpm bench schema runner`)
// and prints their figures. Each benchmark is a module in this folder exporting `run()`.
import { benchmarks } from "./registry.js";

const wanted = process.argv.slice(2);
for (const [name, load] of Object.entries(benchmarks)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n## ${name}`);
  const mod = await load();
  await mod.run();
}
