// Runs a benchmark inside the Workers runtime (test/bench/vitest.config.ts) and reads what it logged.
import { spawnSync } from "node:child_process";
import { stripVTControlCharacters } from "node:util";
import { root } from "../support/wrangler-dev.mjs";

/** Runs the bench `file` and answers the JSON it logged after `tag` (e.g. `BENCH`). */
export const inRuntime = (file, tag) => {
	const result = spawnSync("vitest", ["run", "--config", "test/bench/vitest.config.ts"], {
		cwd: root,
		encoding: "utf8",
		env: { ...process.env, BENCH_FILE: file },
	});
	// The tag, then JSON: a test's title may hold the tag too. Colours would hide the tag's word boundary.
	const logged = new RegExp(`\\b${tag} ([[{].*)$`, "m").exec(
		stripVTControlCharacters(result.stdout),
	);
	if (!logged) throw new Error(`${file} failed\n${result.stdout}\n${result.stderr}`);
	return JSON.parse(logged[1]);
};
