import { readdirSync, readFileSync } from "node:fs";

/** Never part of the project: dependencies, git's own, and what tools write. */
const outside = new Set([".git", "node_modules", ".wrangler", "test-results"]);

/** Every file and directory of the project under `dir`, by path; a directory's ends with a slash. */
export const projectPaths = (dir = "."): string[] =>
	readdirSync(dir, { withFileTypes: true })
		.filter(({ name }) => !outside.has(name))
		.flatMap((entry) => {
			const path = dir === "." ? entry.name : `${dir}/${entry.name}`;
			return entry.isDirectory() ? [`${path}/`, ...projectPaths(path)] : [path];
		});

/** The README, the Markdown files of docs/ and wrangler.toml (whose comments document its settings), by path. */
export const documentation = () =>
	Object.fromEntries(
		[
			"README.md",
			"wrangler.toml",
			...readdirSync("docs")
				.filter((name) => name.endsWith(".md"))
				.map((name) => `docs/${name}`),
		].map((path) => [path, readFileSync(path, "utf8")]),
	);

/** The project's own source files (src, scripts, test), by path: what code and comments cite. */
export const sources = () =>
	Object.fromEntries(
		projectPaths()
			.filter((path) => /^(src|scripts|test)\/.*\.(ts|mjs)$/.test(path))
			.filter((path) => !path.endsWith("worker-configuration.d.ts"))
			.map((path) => [path, readFileSync(path, "utf8")]),
	);
