import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { servedDocument, testApp } from "./support/api";
import { requestOf } from "./support/curl";
import { seedAsDev } from "./support/seed";

/** The `$ curl …` lines of the README's examples, each with the output printed under it. */
const examples = [...env.README.matchAll(/^\$ (curl .+)\n(.+)$/gm)].map(([, command, output]) => ({
	command,
	output,
}));

beforeAll(async () => {
	await seedAsDev();
	// Local development as .dev.vars.example sets it, with the dev token the README uses; this file runs in its
	// own isolate.
	env.API_TOKEN = "petstore-dev-token";
	env.LOCAL_DEVELOPMENT = "true";
});

describe("the README's curl examples", () => {
	it("has three of them", () => {
		expect(examples).toHaveLength(3);
	});

	it.each(examples)("$command answers what the README shows", async ({ command, output }) => {
		const response = await testApp().request(requestOf(command));
		expect(response.status).toBeLessThan(300);
		expect(await response.json()).toEqual(JSON.parse(output));
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
