import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { allowFolder, readFolderPrograms } from "@debatekit/files";

/** The repository root. */
export const repoRoot = new URL("../../", import.meta.url).pathname;

export interface WorkspacePackage {
  dir: string;
  manifest: {
    name: string;
    private?: boolean;
    dependencies?: Record<string, string>;
    [key: string]: unknown;
  };
}

/** Every publishable package of the workspace (private ones excluded). */
export function publishablePackages(): WorkspacePackage[] {
  const dirs = ["packages", "packages/adapters", "apps"].flatMap((parent) =>
    readdirSync(join(repoRoot, parent), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(repoRoot, parent, d.name, "package.json")))
      .map((d) => join(repoRoot, parent, d.name)),
  );
  return dirs
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
    .filter((p) => !p.manifest.private);
}

/**
 * Allows the programs a debate or tournament folder names, as `debate allow <dir>` does: recorded
 * under `env`'s XDG_STATE_HOME (else its HOME's ~/.local/state), outside the folder.
 */
export async function allowFolderPrograms(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  await allowFolder(await readFolderPrograms(dir, { env }), env, new Date());
}
