import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { servedDocument, testApp } from "./support/api";
import { requestOf } from "./support/curl";
import { seedAsDev } from "./support/seed";

/**
 * The pages whose example commands are replayed, in this order over one database: the README's first requests,
 * then each page of docs/ that shows some (docs/keys.md goes on from the README's).
 */
const pages = [
	"README.md",
	...Object.keys(env.DOCS)
		.filter((path) => path.startsWith("docs/"))
		.sort(),
];

/**
 * The example commands of the pages, in order: each `$ curl …` with the output printed under it, and the names
 * its `$ NAME=…` lines before it give the secret of the answer before them (a key is shown once, and differs
 * every time).
 */
const examples = pages.flatMap((page) => {
	const lines = env.DOCS[page].split("\n");
	let assigned: string[] = [];
	return lines.flatMap((line, index) => {
		const command = /^\$ (.+)$/.exec(line)?.[1];
		if (!command) return [];
		const name = /^(\w+)=/.exec(command)?.[1];
		if (name) {
			assigned.push(name);
			return [];
		}
		const { method, url } = requestOf(command);
		const { pathname, search } = new URL(url);
		const uses = command.match(/\$\w+/g);
		const title = `${page}: ${method} ${pathname}${search}${uses ? ` with ${uses.join(", ")}` : ""}`;
		const example = { page, title, command, output: lines[index + 1], assigned };
		assigned = [];
		return [example];
	});
});

/** Whether `actual` is what the README shows: `…` in a string stands for any text. */
const shows = (expected: unknown, actual: unknown): boolean => {
	if (typeof expected === "string" && expected.includes("…")) {
		const pattern = expected.split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
		return typeof actual === "string" && new RegExp(`^${pattern.join(".+")}$`).test(actual);
	}
	if (typeof expected !== "object" || expected === null) return Object.is(expected, actual);
	if (typeof actual !== "object" || actual === null) return false;
	const keys = Object.keys(expected);
	return (
		keys.length === Object.keys(actual).length &&
		keys.every((key) =>
			shows((expected as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key]),
		)
	);
};

beforeAll(async () => {
	await seedAsDev();
	// Local development as .dev.vars.example sets it, with the dev token the README uses; this file runs in its
	// own isolate.
	env.API_TOKEN = "petstore-dev-token";
	env.LOCAL_DEVELOPMENT = "true";
});

describe("the README's curl examples, and those of docs/", () => {
	it("has six of them: three in the README, three in docs/keys.md", () => {
		expect(examples.map(({ page }) => page)).toEqual([
			...Array(3).fill("README.md"),
			...Array(3).fill("docs/keys.md"),
		]);
	});

	/** What the examples so far set: the shell variables, and the last answer, whose secret a `$ NAME=…` takes. */
	const variables: Record<string, string> = {};
	let last: { secret?: string } = {};

	for (const { title, command, output, assigned } of examples) {
		it(`${title} answers what the page shows, with the status the answer says`, async () => {
			for (const name of assigned) variables[name] = last.secret ?? "";
			const response = await testApp().request(requestOf(command, variables));
			const text = await response.text();
			last = JSON.parse(text);
			const shown = JSON.parse(output);
			expect(response.status, command).toBe(
				shown.code ? shown.status : response.ok ? response.status : 200,
			);
			expect(shows(shown, last), `${command}\n${text}`).toBe(true);
			// Byte for byte: the body is the line the page prints, `…` standing for a string's text.
			const pattern = output
				.split("…")
				.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
				.join('[^"]+');
			expect(text).toMatch(new RegExp(`^${pattern}$`));
		});
	}
});

describe("the README's endpoints table", () => {
	it("lists every operation of the document, and nothing else", async () => {
		const rows = [
			...env.README.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) +\| (\S+) +\| (\w+) +\|/gm),
		].map(([, method, path, operationId]) => `${method} ${path} ${operationId}`);
		const { paths } = await servedDocument();
		const operations = Object.entries(paths).flatMap(([path, methods]) =>
			Object.entries(methods).map(
				([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`,
			),
		);
		expect(rows.sort()).toEqual(operations.sort());
	});
});
