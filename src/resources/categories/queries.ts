import { and, eq, ne } from "drizzle-orm";
import { withNameKey } from "../../db/name-key";
import { category } from "../../db/resources";
import { categories, pets } from "../../db/schema";
import { declareChange, declareCreate, exists, type WriteContext } from "../../db/write";
import type { CategoryPatch, NewCategory } from "../../models/category";
import { ApiError } from "../../models/error";

const nameTaken = (name: string) =>
	new ApiError("category_exists", `A category named "${name}" already exists.`);

const creating = declareCreate(category, () => ({
	events: ["category.created"],
	refused: ({ name }) => nameTaken(name),
}));

/**
 * Creates the category unless its name is taken (the unique index on the folded name decides), with its event
 * (and, under an `Idempotency-Key`, its record), in one batch.
 */
export const createCategory = (ctx: WriteContext, fields: NewCategory) =>
	creating(ctx, withNameKey(fields));

const updating = declareChange(category, ({ row, id, carries }) => ({
	refuse: carries("name")
		? {
				when: exists(categories, and(eq(categories.nameKey, row.nameKey), ne(categories.id, id))),
				error: ({ name }) => nameTaken(name as string),
			}
		: undefined,
	event: "category.updated",
}));

/** Applies the changes unless the category is missing, changed since `If-Match`, or the new name is taken. */
export const updateCategory = (ctx: WriteContext, id: number, changes: CategoryPatch) =>
	updating(ctx, id, { set: withNameKey(changes) });

/** Deletes the category unless it changed since `If-Match` or pets still belong to it. */
export const deleteCategory = declareChange(category, ({ id }) => ({
	delete: true,
	refuse: {
		when: exists(pets, eq(pets.categoryId, id)),
		error: ({ id }) => new ApiError("category_in_use", `Category ${id} still has pets.`),
	},
	event: "category.deleted",
}));
