import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import manifest from "../package.json";
import thirdParty from "./third-party/package.json";

const docs = Object.entries(env.DOCS);
/** The README and the pages of docs/, by path. */
const pages = Object.keys(env.DOCS).filter((path) => path.endsWith(".md"));
/**
 * The commands a text gives that package.json does not back: `npm run <script>` and `npm test` in inline code or
 * on a line of their own (a `$ ` prompt allowed), each naming a script of it, and `npx <package>` one of its
 * dependencies, or `npx <package>@<version>` one that test/third-party pins (`…` stands for any).
 */
const unknownCommands = (text: string) => {
	const scripts = Object.keys(manifest.scripts);
	const dependencies = [
		...Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }),
		...Object.entries(thirdParty.dependencies).map(([name, version]) => `${name}@${version}`),
	];
	return [...text.matchAll(/^(?:\$ )?(?:npm|npx) .*$|`(?:npm|npx) [^`]*`/gm)]
		.map(([command]) => command.replaceAll("`", "").replace(/^\$ /, ""))
		.filter((command) => {
			const [tool, first, second] = command.split(/\s+/);
			if (tool === "npx") return first !== "…" && !dependencies.includes(first);
			if (first === "run") return second !== "…" && !scripts.includes(second);
			return first === "test" && !scripts.includes("test");
		});
};
/** The anchor GitHub gives a heading: lower case, without punctuation, its spaces hyphens. */
const anchor = (heading: string) =>
	heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, "")
		.replace(/ /g, "-");
const paths = new Set(env.PROJECT_PATHS);
/** The project's top-level directories: a path that starts with one names a part of the project. */
const topLevel = env.PROJECT_PATHS.filter((path) => /^[^/]+\/$/.test(path));
/** The extensions of the files a document may name. */
const fileName = /\.(ts|mjs|cjs|js|json|toml|md|sql|ya?ml|example)$/;

/** Whether `path` (relative to the project, `./` and a trailing slash allowed) is a file or a directory of it. */
const exists = (path: string) => {
	const clean = path.replace(/^\.\//, "").replace(/\/$/, "");
	return paths.has(clean) || paths.has(`${clean}/`);
};

/** Every path a document names: a link's target, a path under a top-level directory, a file name in code. */
const named = (path: string, text: string) => {
	const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
	const links = [...text.matchAll(/\]\(([^)\s#]+)[^)]*\)/g)]
		.map(([, target]) => target)
		.filter((target) => !/^[a-z]+:/.test(target))
		.map((target) => new URL(target, `file:///${dir}`).pathname.slice(1));
	const underTopLevel = topLevel.flatMap((top) =>
		[...text.matchAll(new RegExp(`(?<![\\w/.@-])${top.replace(".", "\\.")}[\\w./-]*`, "g"))].map(
			([match]) => match.replace(/\.$/, ""),
		),
	);
	const inCode = [...text.matchAll(/`([^`\s]+)`/g)]
		.map(([, code]) => code)
		.filter((code) => fileName.test(code) && !code.includes(":"));
	return [...new Set([...links, ...underTopLevel, ...inCode])];
};

describe("the README and docs/", () => {
	it.each(docs)("%s names only paths the project has", (path, text) => {
		// npm run bench's tables label what it measured at the commit it names.
		const prose = path === "docs/performance.md" ? text.replace(/^\|.*$/gm, "") : text;
		const missing = named(path, prose).filter(
			(name) =>
				!exists(name) &&
				// A file name alone names a file of that name anywhere in the project.
				(name.includes("/") || !env.PROJECT_PATHS.some((file) => file.endsWith(`/${name}`))),
		);
		expect(missing).toEqual([]);
	});

	it("reaches every page of docs/ from the README, by Markdown links a reader follows", () => {
		const linked = (path: string) => {
			const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
			return [...(env.DOCS[path] ?? "").matchAll(/\]\(([^)\s#]+)[^)]*\)/g)]
				.map(([, target]) => target)
				.filter((target) => !/^[a-z]+:/.test(target))
				.map((target) => new URL(target, `file:///${dir}`).pathname.slice(1))
				.filter((page) => page.startsWith("docs/"));
		};
		const reached = new Set<string>();
		for (let next = linked("README.md"); next.length > 0; ) {
			for (const page of next) reached.add(page);
			next = next.flatMap(linked).filter((page) => !reached.has(page));
		}
		const pages = docs.map(([path]) => path).filter((path) => path.startsWith("docs/"));
		expect([...reached].sort()).toEqual(pages.sort());
	});

	it("say the same of rotating WEBHOOK_SECRET_KEY: how long a key is, and when an old one may go", () => {
		const rotation = docs.filter(([, text]) =>
			/rotat[^.]{0,80}WEBHOOK_SECRET_KEY|WEBHOOK_SECRET_KEY[^.]{0,80}rotat/s.test(text),
		);
		expect(rotation.map(([path]) => path).sort()).toEqual(["docs/operations.md", "wrangler.toml"]);
		for (const [path, text] of [...rotation, ["docs/design.md", env.DOCS["docs/design.md"]]]) {
			expect(text, path).toMatch(/at least\s+(#\s+)?32\s+(#\s+)?characters/);
			expect(text, path).toMatch(/every-minute\s+(#\s+)?Cron/);
			expect(text, path).not.toMatch(/next delivery|as an endpoint delivers|delivered since/);
		}
	});

	it("and the code cite only what the repository holds: no contract kept elsewhere, by name or section", () => {
		// A standard's own sections (RFC 6750 §3.1) are in the standard.
		const cites = /\bAPI\.md\b|(?<!(RFC|ISO) ?\d+ )§\s?\d/;
		const citing = Object.entries({ ...env.DOCS, ...env.SOURCES })
			.filter(([path, text]) => path !== "test/docs.test.ts" && cites.test(text))
			.map(([path]) => path);
		expect(citing).toEqual([]);
	});

	it("would notice a path the project lacks", () => {
		expect(
			named(
				"docs/x.md",
				"See `src/db/batch.ts`, [the contract](../API.md) and `shared/API.md`.",
			).filter((name) => !exists(name)),
		).toEqual(["API.md", "src/db/batch.ts", "shared/API.md"]);
	});

	it.each(pages.filter((path) => path !== "docs/performance.md"))(
		"%s quotes no measurement that docs/performance.md, written by npm run bench, does not hold",
		(path) => {
			const performance = env.DOCS["docs/performance.md"];
			expect(performance).toContain("<!-- Written by `npm run bench`");
			// A number with two decimals or more (not a time or an id), a size or a rate: what a run measures.
			const figures = env.DOCS[path].match(
				/(?<![\w.:-])\d[\d,]*(\.\d{2,}(?![\w.])|\s?(KiB|MiB|GiB|req\/s|deliveries\/s)\b)/g,
			);
			for (const figure of figures ?? []) {
				expect(performance, figure).toContain(figure);
			}
		},
	);

	it.each(pages)(
		"%s names only npm scripts package.json has, and npx only its dependencies",
		(path) => {
			expect(unknownCommands(env.DOCS[path])).toEqual([]);
		},
	);

	it("list every script of package.json in docs/development.md's table, but its pre and post hooks", () => {
		const rows = env.DOCS["docs/development.md"]
			.split("\n")
			.filter((line) => line.startsWith("| `npm "))
			.map((line) => line.split("|")[1]);
		const listed = rows.flatMap((cell) =>
			[...cell.matchAll(/`npm (?:run )?([\w:-]+)/g)].map(([, script]) => script),
		);
		// npm runs a hook itself, before or after its script (or `npm install`).
		const hook = (script: string) =>
			/^(pre|post)/.test(script) &&
			[...Object.keys(manifest.scripts), "install"].includes(script.replace(/^(pre|post)/, ""));
		const scripts = Object.keys(manifest.scripts).filter((script) => !hook(script));
		expect(listed.sort()).toEqual(scripts.sort());
	});

	it("would notice a script or a package package.json lacks", () => {
		expect(
			unknownCommands(
				"Run `npm run dev`, then `npm run serve -- --port 1`, `npx wrangler dev` and:\n" +
					"$ npx left-pad --cli\nnpm test\n`npm run …` and `npx …`",
			),
		).toEqual(["npm run serve -- --port 1", "npx left-pad --cli"]);
	});

	it("gives docs/agents.md the README's Inspector commands, which test/e2e/mcp.e2e.mjs runs", () => {
		const inspector = (text: string) =>
			text
				.replaceAll("\\\n", "")
				.split("\n")
				.filter((line) => line.startsWith("npx @modelcontextprotocol/inspector"));
		expect(inspector(env.README)).toHaveLength(4);
		for (const path of pages.filter((page) => page !== "README.md")) {
			for (const command of inspector(env.DOCS[path])) {
				expect(inspector(env.README), path).toContain(command);
			}
		}
		expect(inspector(env.DOCS["docs/agents.md"])).toEqual(inspector(env.README));
	});

	it("keep the README to 12 KB, whose first screen says what it is, the two commands, and its contents", () => {
		expect(new TextEncoder().encode(env.README).length).toBeLessThanOrEqual(12_288);
		const screen = env.README.split("\n").slice(0, 25).join("\n");
		expect(screen).toContain("npm install && npm run dev");
		expect(screen).toMatch(/^npm test\b/m);
		const linked = [...screen.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target);
		const sections = [...env.README.matchAll(/^## (.+)$/gm)]
			.map(([, heading]) => `#${anchor(heading)}`)
			.filter((target) => target !== "#contents");
		const docsPages = pages.filter((path) => path.startsWith("docs/"));
		expect(linked).toEqual(expect.arrayContaining([...sections, ...docsPages]));
	});

	it.each(pages)("%s links only to sections its targets have", (path) => {
		const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
		const broken = [...env.DOCS[path].matchAll(/\]\(([^)\s#:]*)#([^)\s]+)\)/g)].filter(
			([, target, fragment]) => {
				const page = target ? new URL(target, `file:///${dir}`).pathname.slice(1) : path;
				const headings = [...(env.DOCS[page] ?? "").matchAll(/^#+ (.+)$/gm)];
				return !headings.some(([, heading]) => anchor(heading) === fragment);
			},
		);
		expect(broken.map(([link]) => link)).toEqual([]);
	});
});
