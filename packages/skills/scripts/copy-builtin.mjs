// Copies the repository's skill packs (skills/ at the root) into builtin/, so the published package
// carries them: an installed `debate` has the built-in skills whatever folder it runs from.
import { cp, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const source = fileURLToPath(new URL("../../../skills/", import.meta.url));
const target = fileURLToPath(new URL("../builtin/", import.meta.url));

// Start clean: a pack removed or renamed at the root must not linger in the package.
await rm(target, { recursive: true, force: true });
await cp(source, target, { recursive: true });
