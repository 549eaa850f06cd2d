#!/usr/bin/env node
// Fails when generated files differ from what is committed: codegen has just run (turbo's
// `codegen` task), so any difference means someone edited a schema without committing the output,
// or edited a generated file by hand.
import { execFileSync } from "node:child_process";

const paths = [
  "packages/schema/src/generated",
  "packages/schema/src/index.ts",
  "packages/schema/schemas",
  "packages/core/src/generated",
];
const status = execFileSync("git", ["status", "--porcelain", "--", ...paths], { encoding: "utf8" });
if (status.trim()) {
  console.error(`Generated files are out of date. Run \`pnpm codegen\` and commit the result:\n${status}`);
  process.exit(1);
}
console.log("generated files are up to date");
