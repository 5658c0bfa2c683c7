// Stands in for zod's core index as zod's classic API imports it (wrangler.toml `[alias]`). Classic reads `util`
// as a named import of core's `export * as util`, which makes a bundler keep all of core/util.js; this `util`
// holds the same functions, only those classic calls, and throws when asked for any other.
import {
	constantCatch,
	derived,
	extend,
	hide,
	installLazyProp,
	issue,
	merge,
	mergeDefs,
	normalizeParams,
	omit,
	own,
	partial,
	pick,
	required,
	safeExtend,
	shallowClone,
} from "../../node_modules/zod/v4/core/util.js";

export * from "zod/v4/core";

export const util = new Proxy(
	{
		constantCatch,
		derived,
		extend,
		hide,
		installLazyProp,
		issue,
		merge,
		mergeDefs,
		normalizeParams,
		omit,
		own,
		partial,
		pick,
		required,
		safeExtend,
		shallowClone,
	},
	{
		get(target, key, receiver) {
			if (typeof key === "string" && !Object.hasOwn(target, key)) {
				throw new Error(
					`zod's util.${key} is not in the Worker bundle: add it to src/bundle/zod-core.ts (see wrangler.toml [alias]).`,
				);
			}
			return Reflect.get(target, key, receiver);
		},
	},
);
