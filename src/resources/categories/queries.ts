import { and, eq, ne } from "drizzle-orm";
import { withNameKey } from "../../db/name-key";
import { category } from "../../db/resources";
import { categories, pets } from "../../db/schema";
import { changeOne, create, exists, type WriteContext } from "../../db/write";
import type { CategoryPatch, NewCategory } from "../../models/category";
import { ApiError } from "../../models/error";
import { nameKey } from "../../models/name-key";

const nameTaken = (name: string) =>
	new ApiError("category_exists", `A category named "${name}" already exists.`);

/**
 * Creates the category unless its name is taken (the unique index on the folded name decides), with its event
 * (and, under an `Idempotency-Key`, its record), in one batch.
 */
export const createCategory = (ctx: WriteContext, fields: NewCategory) =>
	create(ctx, category, {
		values: withNameKey(fields),
		events: ["category.created"],
		refused: nameTaken(fields.name),
	});

/** Applies the changes unless the category is missing, changed since `If-Match`, or the new name is taken. */
export const updateCategory = (ctx: WriteContext, id: number, changes: CategoryPatch) =>
	changeOne(ctx, category, id, {
		set: withNameKey(changes),
		refuse:
			changes.name === undefined
				? undefined
				: {
						when: exists(
							categories,
							and(eq(categories.nameKey, nameKey(changes.name)), ne(categories.id, id)),
						),
						error: nameTaken(changes.name),
					},
		event: "category.updated",
	});

/** Deletes the category unless it changed since `If-Match` or pets still belong to it. */
export const deleteCategory = (ctx: WriteContext, id: number) =>
	changeOne(ctx, category, id, {
		delete: true,
		refuse: {
			when: exists(pets, eq(pets.categoryId, id)),
			error: new ApiError("category_in_use", `Category ${id} still has pets.`),
		},
		event: "category.deleted",
	});
