import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { defineResource } from "../src/db/resource";
import { categories, pets } from "../src/db/schema";
import { Category } from "../src/models/category";
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

	it("does not compile, and stops the Worker at start-up, when a table with a folded name is declared without its fold", () => {
		const declare = () =>
			// @ts-expect-error: the compiler asks for the fold too
			defineResource({
				name: "Category",
				path: "/categories",
				param: "categoryId",
				table: categories,
				model: Category,
			});
		expect(declare).toThrow(
			'Category: its table "categories" holds a folded name (nameKey); declare its fold, or a write would store a name without it.',
		);
	});
});
