// The two Workers runtime.bench.ts times, as one module that its vitest config bundles as `wrangler deploy` would.
export { createApp } from "../../src/app";
export { createFloor } from "./floor";
