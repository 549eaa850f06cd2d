/** A benchmark module: `run()` prints its figures. */
export interface Benchmark {
  run(): Promise<void>;
}

/** Every benchmark, by name. Add one line per benchmark module. */
export const benchmarks: Record<string, () => Promise<Benchmark>> = {
  schema: () => import("./schema.bench.js"),
  skills: () => import("./skills.bench.js"),
  core: () => import("./core.bench.js"),
  files: () => import("./files.bench.js"),
  runner: () => import("./runner.bench.js"),
  watch: () => import("./watch.bench.js"),
  formats: () => import("./formats.bench.js"),
  report: () => import("./report.bench.js"),
  prompts: () => import("./prompts.bench.js"),
  judges: () => import("./judges.bench.js"),
  tournament: () => import("./tournament.bench.js"),
  cli: () => import("./cli.bench.js"),
  szz: () => import("./szz.bench.js"),
};
