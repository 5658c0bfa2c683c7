import { beforeAll, describe, expect, it } from "vitest";
import { origin, servedDocument, testApp, token } from "./support/api";
import type { Document } from "./support/contract";
import { requestOf } from "./support/curl";
import { seedAsDev } from "./support/seed";
import { exampleRequest, locations, successOf, walkthrough } from "./support/walkthrough";

const document: Document = await servedDocument();
beforeAll(seedAsDev);

describe("every operation's curl sample runs against the app that served it, with the reader's $API_TOKEN, and answers the documented success status, in a sensible order on a fresh seed", () => {
	const { keep, idFor } = locations();
	const steps = walkthrough(document).map((step) => [step.operation.operationId, step] as const);
	it.each(steps)("%s", async (operation, step) => {
		const curl = step.operation["x-codeSamples"].find(({ label }) => label === "curl")?.source;
		expect(curl, operation).toBeDefined();
		const sample = requestOf(curl ?? "", { API_TOKEN: token });
		expect(new URL(sample.url).origin).toBe(origin);
		// The ids a create answered earlier, where the sample shows its examples' own.
		const url = new URL(sample.url);
		url.pathname = new URL(exampleRequest(step, idFor).path, origin).pathname;
		const response = await testApp().request(new Request(url, sample));
		keep(response);
		expect(response.status, `${operation}: ${curl}`).toBe(successOf(step));
	});
});
