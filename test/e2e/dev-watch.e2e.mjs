// `wrangler dev` runs `[build].command` again whenever a file under `build.watch_dir` changes, and reloads when
// one under `assets.directory` does: a build that writes where wrangler watches restarts itself without end,
// and the server stops answering. This runs the build that wrangler would run and looks at what it wrote.
import { spawnSync } from "node:child_process";
import { readdir, stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { root } from "../support/wrangler-dev.mjs";

const config = unstable_readConfig({ config: join(root, "wrangler.toml") });

/** The directories `wrangler dev` watches: the build's `watch_dir` (only when there is a command) and the assets. */
const watchedDirs = ({ build, assets }) =>
	[
		...(build.command ? [build.watch_dir].flat() : []),
		...(assets?.directory ? [assets.directory] : []),
	].map((dir) => resolve(root, dir));

/** Every file under `dirs`, with the time it was last written. */
const writeTimes = async (dirs) => {
	const times = new Map();
	for (const dir of dirs) {
		for (const file of await readdir(dir, { recursive: true })) {
			const path = join(dir, file);
			const stats = await stat(path);
			if (stats.isFile()) times.set(path, stats.mtimeMs);
		}
	}
	return times;
};

/** The watched files that the configuration's build command writes, relative to the project. */
const writtenByBuild = async (wranglerConfig) => {
	const watched = watchedDirs(wranglerConfig);
	const before = await writeTimes(watched);
	const { command, cwd = root } = wranglerConfig.build;
	if (command) {
		const result = spawnSync(command, { cwd, shell: true, stdio: "ignore" });
		expect(result.status, command).toBe(0);
	}
	const after = await writeTimes(watched);
	return [...after]
		.filter(([file, time]) => before.get(file) !== time)
		.map(([file]) => relative(root, file));
};

describe("wrangler dev, while files are edited", () => {
	it("watches no file that its build writes, so an edit rebuilds once", async () => {
		expect(watchedDirs(config)).toContain(resolve(root, "src/reference/assets"));
		expect(await writtenByBuild(config)).toEqual([]);
	});

	it("would catch a build that rewrites the reference bundle under the watched src/", async () => {
		const rebuildingAssets = {
			...config,
			build: { command: "npm run --silent reference:build", watch_dir: "src" },
		};
		expect(await writtenByBuild(rebuildingAssets)).toContain(
			"src/reference/assets/reference/scalar.js",
		);
	});
});
