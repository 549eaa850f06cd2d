export { createProgram, main } from "./main.js";
