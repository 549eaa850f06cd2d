import {
  assertAllowed,
  type FolderPrograms,
  loadConsent,
  programsOfFrontmatter,
  readFolderPrograms,
} from "@debatekit/files";
import type { SeatConfig } from "@debatekit/schema";

/** Checks one seat as debate.md holds it now against what the user allowed. */
export type SeatConsentCheck = (role: string, seat: SeatConfig) => Promise<void>;

/**
 * Refuses a folder whose seats name a program (a `command`, a workspace outside the folder, a
 * server off this machine that would be sent the user's credentials) the user has not allowed,
 * before anything is written (even the lock) or contacted. Returns the check each seat
 * passes again when its adapter is made, since debate.md may be edited while a run goes on.
 */
export async function checkFolderConsent(
  dir: string,
  options: { env: NodeJS.ProcessEnv; consentDir?: string; vouched?: readonly string[] },
): Promise<SeatConsentCheck> {
  const consent = await loadConsent(options.env);
  const allowCommand = `debate allow ${options.consentDir ?? dir}`;
  const found: FolderPrograms = await readFolderPrograms(dir, options);
  if (options.vouched?.length) {
    const own = consent.folders[found.dir]?.programs ?? [];
    const vouched = options.vouched.map((hash) => ({ hash, shown: "vouched for by the caller" }));
    consent.folders[found.dir] = { allowed_at: "this run", programs: [...own, ...vouched] };
  }
  assertAllowed(consent, found, allowCommand);
  return async (role, seat) => {
    const own = await programsOfFrontmatter({ seats: { [role]: seat } }, dir, options);
    assertAllowed(consent, { dir: found.dir, file: "debate.md", ...own }, allowCommand);
  };
}
