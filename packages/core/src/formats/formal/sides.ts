import type { DebaterRole, SideCode } from "../../types.js";

/** The side code of a debater role: `sideCode("proposition") === "prop"`. */
export function sideCode(role: DebaterRole): SideCode {
  return role === "proposition" ? "prop" : "opp";
}

/** The debater role of a side code: `roleOfSide("opp") === "opposition"`. */
export function roleOfSide(side: SideCode): DebaterRole {
  return side === "prop" ? "proposition" : "opposition";
}

/** The other debater. */
export function otherRole(role: DebaterRole): DebaterRole {
  return role === "proposition" ? "opposition" : "proposition";
}
