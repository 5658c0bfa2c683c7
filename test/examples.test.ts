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

const document: Document = await servedDocument();
beforeAll(seedAsDev);

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

	it("walk every operation of the document", () => {
		expect(walkthrough(document)).toHaveLength(operationsOf(document).length);
	});
});

describe("each of the document's request examples, sent as it is in a sensible order on a fresh seed, answers the documented success status", () => {
	const { keep, idFor } = locations();
	const steps = walkthrough(document).map((step) => [step.operation.operationId, step] as const);
	it.each(steps)("%s", async (operation, step) => {
		const { path, init } = exampleRequest(step, idFor);
		const response = await (needsCredential(step) ? api : anonymous)(path, init);
		keep(response);
		expect(
			response.status,
			`${operation}: ${step.method} ${path} ${init.body ?? ""} → ${await response.clone().text()}`,
		).toBe(successOf(step));
	});
});
