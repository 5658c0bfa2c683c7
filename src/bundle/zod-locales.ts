// Stands in for zod's table of every locale (wrangler.toml `[alias]`): the API speaks English only, and
// `@hono/zod-openapi` re-exports zod's whole namespace, so bundlers cannot drop the other locales themselves.
export { default as en } from "zod/v4/locales/en.js";
