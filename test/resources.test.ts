import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { defineResource } from "../src/db/resource";
import { pets } from "../src/db/schema";
import { Pet } from "../src/models/pet";

describe("a resource's declaration", () => {
	it("stops the Worker at start-up, naming the field, when its model has a field with no column", () => {
		const declare = () =>
			defineResource({
				name: "Pet",
				path: "/pets",
				param: "petId",
				table: pets,
				// @ts-expect-error: the compiler names the field too
				model: Pet.extend({ nickname: z.string().optional() }),
				key: pets.id,
				versions: [pets.version],
			});
		expect(declare).toThrow(
			'Pet: the model\'s field "nickname" has no column in the table "pets"; add it to src/db/schema.ts, then run npm run db:generate.',
		);
	});
});
