// Installs the pinned CLIs once before the conformance suite (idempotent: seconds when present).
import { installClis } from "./install-clis.mjs";

/** Vitest global setup: make sure every pinned CLI is installed. */
export default function setup(): void {
  installClis();
}
