/** The revision that names itself in each request's `_meta`. */
export const current = "2026-07-28";

/** The revisions `/mcp` serves: the current one, and the one with `initialize` beside it. */
export const servedVersions: readonly string[] = [current, "2025-11-25"];

/** Where a request of the current revision names it, in its `_meta`. */
export const versionKey = "io.modelcontextprotocol/protocolVersion";
