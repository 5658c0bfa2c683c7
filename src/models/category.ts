import { z } from "@hono/zod-openapi";
import { Id } from "./id";
import { limits } from "./limits";
import { name, nameRules, text } from "./text";

const fields = {
	name: name(limits.categoryName).openapi({
		description: `${nameRules} Unique once folded: compatibility forms (NFKC) and letter case in any script, invisible characters ignored, so \`Ｄｏｇ\` and \`dog\` are \`Dog\`.`,
		example: "Dog",
	}),
	description: text(limits.categoryDescription)
		.optional()
		.openapi({ example: "Loyal companions." }),
};

// Not one of the seeded names (src/db/seed.sql), which a new category cannot take.
export const NewCategory = z
	.strictObject(fields)
	.openapi("NewCategory", { example: { name: "Bird", description: "Songbirds and parrots." } });

export const CategoryPatch = z
	.strictObject(fields)
	.partial()
	.refine((patch) => Object.keys(patch).length > 0, "must change at least one field")
	.openapi("CategoryPatch", { minProperties: 1, example: { description: "Good boys and girls." } });

export const Category = z
	.object({ id: Id, ...fields })
	.openapi("Category", { example: { id: 1, name: "Dog", description: "Loyal companions." } });
export type Category = z.infer<typeof Category>;

export const Categories = z.array(Category).openapi("Categories");
