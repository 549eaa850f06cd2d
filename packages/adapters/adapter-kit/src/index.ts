export type { ResolvedEffort } from "./effort.js";
export {
  EffortMapError,
  effortFileEnv,
  findEffortOverrides,
  loadEffortMap,
  mergeEffortMaps,
  readEffortFile,
  resolveEffort,
  shippedEffortFile,
} from "./effort.js";
