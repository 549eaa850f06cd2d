#!/usr/bin/env node
// Installs Debian's zsh and fish for the completion test (test/src/new-help-completion.test.ts):
// `debate completion zsh|fish` is run in the real shells, as bash's is.
import { ensureDebianPackages } from "./lib/debian-packages.mjs";

const installed = ensureDebianPackages({
  label: "shells",
  packages: [
    { name: "zsh", bins: ["/usr/bin/zsh"] },
    { name: "fish", bins: ["/usr/bin/fish"] },
  ],
  why: "The completion test runs `debate completion zsh|fish` in the real shells.",
});
console.log(
  installed.length > 0 ? `shells: installed ${installed.join(", ")}` : "shells: /usr/bin/zsh, /usr/bin/fish",
);
