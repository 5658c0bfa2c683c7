import { resolve } from "node:path";
import { unstable_readConfig } from "wrangler";

/**
 * wrangler.toml's `[alias]` for Vite, so that tests and benchmarks run the modules the Worker bundle holds:
 * wrangler replaces an import whose specifier is exactly the key, wherever it stands.
 */
export const bundleAliases = (root: string) => {
	const { alias } = unstable_readConfig({
		config: resolve(root, "wrangler.toml"),
	});
	return Object.entries<string>(alias ?? {}).map(([specifier, path]) => ({
		find: new RegExp(`^${specifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
		replacement: resolve(root, path),
	}));
};
