import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { anonymous, api, servedDocument } from "./support/api";
import { seedAsDev } from "./support/seed";
import {
	exampleRequest,
	type Located,
	locations,
	needsCredential,
	successOf,
	walkthrough,
} from "./support/walkthrough";

type Sent = ReturnType<typeof exampleRequest>;

/**
 * The ways every operation can be refused that the document lets a client derive: a path id that names nothing, a
 * body with a field no schema has, a page size of 0. Each is sent before the operation succeeds, and refused.
 */
const refusals = ({ template, operation }: Located, { path, init }: Sent): Sent[] => [
	...(template.includes("{")
		? [{ path: path.replace(/\/\d+(?=\/|$|\?)/g, "/987654321"), init }]
		: []),
	...(init.body === undefined
		? []
		: [{ path, init: { ...init, body: JSON.stringify({ notAField: true }) } }]),
	...(operation.parameters?.some(({ name }) => name === "limit")
		? [{ path: `${path}${path.includes("?") ? "&" : "?"}limit=0`, init }]
		: []),
];

/** The document the walk follows. */
const walked = await servedDocument();

describe("the contract holds for every operation of the document, on happy and error paths, in a sensible order on a fresh seed", () => {
	beforeAll(seedAsDev);
	const { keep, idFor } = locations();
	const steps = walkthrough(walked).map((step) => [step.operation.operationId, step] as const);
	it.each(steps)("%s", async (operation, step) => {
		const sent = exampleRequest(step, idFor);
		const { path, init } = sent;
		const send = needsCredential(step) ? api : anonymous;
		for (const refusal of refusals(step, sent)) {
			const response = await send(refusal.path, refusal.init);
			expect(response.status, `${refusal.init.method} ${refusal.path}`).toBeGreaterThanOrEqual(400);
			expect(response.status).toBeLessThan(500);
		}
		const response = await send(path, init);
		keep(response);
		expect(response.status, operation).toBe(successOf(step));
	});
});

describe("the contract", () => {
	// `/mcp` is the transport of the operations as MCP tools, not an operation of its own; the
	// document's description points to it.
	it("documents exactly the routes the app registers, apart from /doc, /reference, /mcp and agents' OAuth sign-in", async () => {
		const document = await servedDocument();
		const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
			Object.keys(methods).map(
				(method) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ":$1")}`,
			),
		);
		const registered = createApp()
			.routes.filter((route) => route.method !== "ALL")
			.map((route) => `${route.method} ${route.path}`)
			.filter(
				(route) =>
					!["GET /doc", "GET /reference", "GET /reference/*", "POST /mcp"].includes(route) &&
					!/ \/(authorize|\.well-known\/oauth-)/.test(route),
			);
		expect([...new Set(registered)].sort()).toEqual(documented.sort());
	});

	it("points to /mcp from the document's description", async () => {
		expect((await servedDocument()).info.description).toContain("`/mcp`");
	});

	it("serves the document without listing /doc itself", async () => {
		const response = await anonymous("/doc");
		expect(response.status).toBe(200);
		expect((await servedDocument()).paths["/doc"]).toBeUndefined();
	});
});
