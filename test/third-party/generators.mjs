// The client generators test/e2e/generated-client.e2e.mjs runs over the served document.
export { createClient } from "@hey-api/openapi-ts";
export { astToString, default as openapiTS } from "openapi-typescript";
export { generateZodClientFromOpenAPI } from "openapi-zod-client";
export { generate } from "orval";
