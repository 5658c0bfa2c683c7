// Prints where the local API lives and the token that writes need, before `wrangler dev` starts.
import { readFileSync } from "node:fs";

const token = readFileSync(".dev.vars", "utf8").match(
	/^API_TOKEN="?([^,"\n]+)/m,
)[1];
console.log(`
  Petstore API  http://localhost:8787
  OpenAPI       http://localhost:8787/doc
  Reference     http://localhost:8787/reference
  Dev token     ${token}
  Cron's work   http://localhost:8787/__scheduled (the sweep; wrangler dev never runs the Cron itself)
`);
