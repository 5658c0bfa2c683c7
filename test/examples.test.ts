import { beforeAll, describe, expect, it } from "vitest";
import { anonymous, api, servedDocument } from "./support/api";
import type { Document } from "./support/contract";
import { seedAsDev } from "./support/seed";
import {
	exampleRequest,
	fromEarlierResponse,
	locations,
	needsCredential,
	operationsOf,
	successOf,
	walkthrough,
} from "./support/walkthrough";

let document: Document;
beforeAll(async () => {
	await seedAsDev();
	document = await servedDocument();
});

describe("the document's request examples", () => {
	it("mark only optional parameters, or ids a create answers, as values of an earlier response", () => {
		for (const { operation } of operationsOf(document)) {
			for (const parameter of (operation.parameters ?? []).filter(fromEarlierResponse)) {
				expect(
					parameter.in === "path" || !parameter.required,
					`${operation.operationId} ${parameter.name}`,
				).toBe(true);
			}
		}
	});

	it("each answer the documented success status, sent as they are in a sensible order on a fresh seed", async () => {
		const { keep, idFor } = locations();
		const walk = walkthrough(document);
		expect(walk).toHaveLength(operationsOf(document).length);
		for (const step of walk) {
			const { path, init } = exampleRequest(step, idFor);
			const response = await (needsCredential(step) ? api : anonymous)(path, init);
			expect(
				response.status,
				`${step.operation.operationId}: ${step.method} ${path} ${init.body ?? ""} → ${await response.clone().text()}`,
			).toBe(successOf(step));
			keep(response);
		}
	});
});
