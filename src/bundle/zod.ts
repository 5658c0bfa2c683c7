// Stands in for the bare "zod" import in the bundle (wrangler.toml `[alias]`). `@hono/zod-openapi` imports zod's
// whole `z` namespace and hands it to `extendZodWithOpenApi`, which makes a bundler keep every export of zod
// (its schema compiler, JSON Schema conversion, ...). This `z` holds only the members the API uses; asking it
// for any other throws, and test/zod-namespace.test.ts checks that it covers every `z.` member src/ reads.
import {
	array,
	boolean,
	enum as enum_,
	int,
	iso,
	number,
	object,
	strictObject,
	string,
	union,
	ZodObject,
	ZodType,
} from "zod/v4";

export const members = {
	array,
	boolean,
	enum: enum_,
	int,
	iso,
	number,
	object,
	strictObject,
	string,
	union,
	ZodObject,
	ZodType,
};

export const z = new Proxy(members, {
	get(target, key, receiver) {
		if (typeof key === "string" && !Object.hasOwn(target, key)) {
			throw new Error(
				`z.${key} is not in the Worker bundle: add it to src/bundle/zod.ts (see wrangler.toml [alias]).`,
			);
		}
		return Reflect.get(target, key, receiver);
	},
});
