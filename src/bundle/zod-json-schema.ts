// Stands in for zod's JSON Schema conversion in the bundle (wrangler.toml `[alias]`): nothing here calls
// `toJSONSchema()` — the document comes from @asteasolutions/zod-to-openapi — so each entry point throws.
// Only `aggregateChecks` is real, as zod-to-openapi reads it through `minLength`, `maxLength` and `format`.
export { aggregateChecks } from "../../node_modules/zod/v4/core/json-schema-processors.js";

const unavailable = (): never => {
	throw new Error(
		"zod's JSON Schema conversion is not in the Worker bundle (src/bundle/zod-json-schema.ts, wrangler.toml [alias]).",
	);
};

// ../core/to-json-schema.js, as classic/schemas.js imports it: the methods are built lazily, and throw when called.
export const createToJSONSchemaMethod = () => unavailable;
export const createStandardJSONSchemaMethod = () => unavailable;

// ../core/json-schema-processors.js, as classic/schemas.js and classic/external.js import it.
export const toJSONSchema = unavailable;
export const anyProcessor = unavailable;
export const arrayProcessor = unavailable;
export const bigintProcessor = unavailable;
export const booleanProcessor = unavailable;
export const catchProcessor = unavailable;
export const customProcessor = unavailable;
export const dateProcessor = unavailable;
export const defaultProcessor = unavailable;
export const enumProcessor = unavailable;
export const fileProcessor = unavailable;
export const functionProcessor = unavailable;
export const intersectionProcessor = unavailable;
export const lazyProcessor = unavailable;
export const literalProcessor = unavailable;
export const mapProcessor = unavailable;
export const nanProcessor = unavailable;
export const neverProcessor = unavailable;
export const nonoptionalProcessor = unavailable;
export const nullProcessor = unavailable;
export const nullableProcessor = unavailable;
export const numberProcessor = unavailable;
export const objectProcessor = unavailable;
export const optionalProcessor = unavailable;
export const pipeProcessor = unavailable;
export const prefaultProcessor = unavailable;
export const promiseProcessor = unavailable;
export const readonlyProcessor = unavailable;
export const recordProcessor = unavailable;
export const setProcessor = unavailable;
export const stringProcessor = unavailable;
export const successProcessor = unavailable;
export const symbolProcessor = unavailable;
export const templateLiteralProcessor = unavailable;
export const transformProcessor = unavailable;
export const tupleProcessor = unavailable;
export const undefinedProcessor = unavailable;
export const unionProcessor = unavailable;
export const unknownProcessor = unavailable;
export const voidProcessor = unavailable;
