// Stands in for zod's core index as zod's classic API imports it (wrangler.toml `[alias]`). Classic reads `util`
// as a named import of core's `export * as util`, which makes a bundler keep all of core/util.js; this `util`
// holds the same functions, only those classic calls, and throws when asked for any other.
import * as all from "../../node_modules/zod/v4/core/util.js";
import { only } from "./only";

export * from "zod/v4/core";

export const util = only(
	{
		constantCatch: all.constantCatch,
		derived: all.derived,
		extend: all.extend,
		hide: all.hide,
		installLazyProp: all.installLazyProp,
		issue: all.issue,
		merge: all.merge,
		mergeDefs: all.mergeDefs,
		normalizeParams: all.normalizeParams,
		omit: all.omit,
		own: all.own,
		partial: all.partial,
		pick: all.pick,
		required: all.required,
		safeExtend: all.safeExtend,
		shallowClone: all.shallowClone,
	},
	(member) =>
		`zod's util.${member} is not in the Worker bundle: add it to src/bundle/zod-core.ts (see wrangler.toml [alias]).`,
);
