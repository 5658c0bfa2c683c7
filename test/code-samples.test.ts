import { beforeAll, describe, expect, it } from "vitest";
import { origin, servedDocument, testApp, token } from "./support/api";
import type { Document } from "./support/contract";
import { requestOf } from "./support/curl";
import { seedAsDev } from "./support/seed";
import { exampleRequest, locations, successOf, walkthrough } from "./support/walkthrough";

let document: Document;
beforeAll(async () => {
	await seedAsDev();
	document = await servedDocument();
});

describe("every operation's curl sample", () => {
	it("runs against the app that served it, with the reader's $API_TOKEN, and answers the documented success status, in a sensible order on a fresh seed", async () => {
		const { keep, idFor } = locations();
		for (const step of walkthrough(document)) {
			const curl = step.operation["x-codeSamples"].find(({ label }) => label === "curl")?.source;
			expect(curl, step.operation.operationId).toBeDefined();
			const sample = requestOf(curl ?? "", { API_TOKEN: token });
			expect(new URL(sample.url).origin).toBe(origin);
			// The ids a create answered earlier, where the sample shows its examples' own.
			const url = new URL(sample.url);
			url.pathname = new URL(exampleRequest(step, idFor).path, origin).pathname;
			const response = await testApp().request(new Request(url, sample));
			expect(response.status, `${step.operation.operationId}: ${curl}`).toBe(successOf(step));
			keep(response);
		}
	});
});
