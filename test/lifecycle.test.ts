import { beforeAll, describe, expect, it } from "vitest";
import {
	api,
	createCategory,
	createPet,
	expectError,
	type Pet,
	servedDocument,
	testApp,
} from "./support/api";

const deprecation = {
	deprecation: "@1795132800",
	sunset: "Wed, 30 Jun 2027 23:59:59 GMT",
	link: '</reference#tag/animals/GET/pets/%7BpetId%7D>; rel="deprecation"; type="text/html"',
};

const lifecycleHeaders = (response: Response) => ({
	deprecation: response.headers.get("deprecation"),
	sunset: response.headers.get("sunset"),
	link: response.headers.get("link"),
});

/** The app with its clock standing at `instant`. */
const at = (instant: string) => testApp({ now: Date.parse(instant) }).anonymous;

let pet: Pet;
beforeAll(async () => {
	pet = await createPet((await createCategory()).id);
});

describe("GET /pets/{petId} is deprecated", () => {
	it("carries Deprecation, Sunset and Link on a 200", async () => {
		const response = await api(`/pets/${pet.id}`);
		expect(response.status).toBe(200);
		expect(lifecycleHeaders(response)).toEqual(deprecation);
	});

	it("carries them on a 404 and a 400 alike", async () => {
		const missing = await api("/pets/987654321");
		expect(lifecycleHeaders(missing)).toEqual(deprecation);
		await expectError(missing, 404, "not_found");
		const malformed = await api("/pets/abc");
		expect(lifecycleHeaders(malformed)).toEqual(deprecation);
		await expectError(malformed, 400, "validation_error");
	});

	it("carries them on a 400 for a malformed header", async () => {
		const response = await api(`/pets/${pet.id}`, {
			headers: { "x-d1-bookmark": "not a bookmark" },
		});
		expect(lifecycleHeaders(response)).toEqual(deprecation);
		await expectError(response, 400, "validation_error");
	});

	it("still answers at the last second before the sunset", async () => {
		const response = await at("2027-06-30T23:59:59Z")(`/pets/${pet.id}`);
		expect(response.status).toBe(200);
	});

	it("answers 410 gone after the sunset, still with the headers", async () => {
		const response = await at("2027-07-01T00:00:00Z")(`/pets/${pet.id}`);
		expect(lifecycleHeaders(response)).toEqual(deprecation);
		await expectError(response, 410, "gone");
	});

	it("leaves the other operations of the path and the list alone", async () => {
		for (const response of [
			await api("/pets"),
			await api(`/store/inventory/${pet.id}`),
			await at("2027-07-01T00:00:00Z")("/pets"),
		]) {
			expect(response.status).toBe(200);
			expect(response.headers.get("deprecation")).toBeNull();
			expect(response.headers.get("sunset")).toBeNull();
		}
	});
});

describe("lifecycle in the document", () => {
	it("marks only getPetById deprecated, with its sunset, and documents its 410", async () => {
		const doc = await servedDocument();
		const deprecated = Object.values(doc.paths)
			.flatMap((methods) => Object.values(methods))
			.filter((operation) => operation.deprecated);
		expect(deprecated).toHaveLength(1);
		expect(deprecated[0]).toMatchObject({
			operationId: "getPetById",
			deprecated: true,
			"x-deprecated-sunset": "2027-06-30",
			responses: { 410: { description: expect.stringContaining("gone") } },
		});
		expect(deprecated[0].description).toBe(
			"One pet. Deprecated since 2026-11-20; after 2027-06-30 it answers 410 `gone`.",
		);
	});

	it("documents Deprecation, Sunset and Link on every response of getPetById", async () => {
		const doc = await servedDocument();
		const { responses } = doc.paths["/pets/{petId}"].get;
		for (const [status, response] of Object.entries(responses)) {
			expect(Object.keys(response.headers ?? {}), status).toEqual(
				expect.arrayContaining(["Deprecation", "Sunset", "Link"]),
			);
		}
		expect(doc.paths["/pets/{petId}"].put.responses[200].headers).not.toHaveProperty("Sunset");
	});
});
