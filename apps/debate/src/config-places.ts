// Where config files are looked for: a leaf, so start-up can look for them without loading the checker.

/** The project's config files that are data, in the order they are looked for in each folder. */
export const DATA_CONFIG_PLACES = [
  "package.json",
  ".debatekitrc",
  ".debatekitrc.json",
  ".debatekitrc.yaml",
  ".debatekitrc.yml",
  "debatekit.config.json",
  "debatekit.config.yaml",
  "debatekit.config.yml",
];
/** The project's config files that are code: loading one runs it, so a gate never does. */
export const CODE_CONFIG_PLACES = ["debatekit.config.js", "debatekit.config.mjs", "debatekit.config.cjs"];
/** The user's own config files, in $XDG_CONFIG_HOME/debatekit/. */
export const USER_CONFIG_PLACES = ["config.json", "config.yaml", "config.yml"];
