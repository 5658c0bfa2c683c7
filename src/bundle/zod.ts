// Stands in for the bare "zod" import in the bundle (wrangler.toml `[alias]`). `@hono/zod-openapi` imports zod's
// whole `z` namespace and hands it to `extendZodWithOpenApi`, which makes a bundler keep every export of zod
// (its schema compiler, JSON Schema conversion, ...). This `z` holds only the members the API uses; asking it
// for any other throws, and test/bundle.test.ts checks that it covers every `z.` member src/ reads.
import * as zod from "zod/v4";
import { only } from "./only";

export const members = {
	array: zod.array,
	boolean: zod.boolean,
	enum: zod.enum,
	int: zod.int,
	iso: zod.iso,
	number: zod.number,
	object: zod.object,
	strictObject: zod.strictObject,
	string: zod.string,
	union: zod.union,
	ZodObject: zod.ZodObject,
	ZodType: zod.ZodType,
};

export const z = only(
	members,
	(member) =>
		`z.${member} is not in the Worker bundle: add it to src/bundle/zod.ts (see wrangler.toml [alias]).`,
);
