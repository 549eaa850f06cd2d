/** The version `debate --version` and the MCP server report. */
export const version = "0.1.0";
