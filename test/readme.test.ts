import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { servedDocument, testApp } from "./support/api";
import { requestOf } from "./support/curl";
import { seedAsDev } from "./support/seed";

/**
 * The README's example commands, in order: each `$ curl …` with the output printed under it, and each `$ NAME=…`,
 * which names the secret of the answer before it (a key is shown once, and differs every time).
 */
const lines = env.README.split("\n");
const examples = lines.flatMap((line, index) => {
	const command = /^\$ (.+)$/.exec(line)?.[1];
	if (!command) return [];
	const assigned = /^(\w+)=/.exec(command)?.[1];
	return [assigned ? { assigned } : { command, output: lines[index + 1] }];
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

describe("the README's curl examples", () => {
	it("has six of them", () => {
		expect(examples.filter((example) => example.command)).toHaveLength(6);
	});

	it("answer in order what the README shows, with the status the answer says", async () => {
		const variables: Record<string, string> = {};
		let last: { secret?: string } = {};
		for (const { command, output, assigned } of examples) {
			if (assigned) {
				variables[assigned] = last.secret ?? "";
				continue;
			}
			const response = await testApp().request(requestOf(command ?? "", variables));
			last = await response.json();
			const shown = JSON.parse(output ?? "");
			expect(response.status, command).toBe(
				shown.code ? shown.status : response.ok ? response.status : 200,
			);
			expect(shows(shown, last), `${command}\n${JSON.stringify(last)}`).toBe(true);
		}
	});
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
