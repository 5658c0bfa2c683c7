// The OpenAPI validator npm run lint:openapi (test/openapi/lint.mjs) runs first.
export { default as SwaggerParser } from "@apidevtools/swagger-parser";
