import { eq } from "drizzle-orm";
import { category } from "../../db/resources";
import { pets } from "../../db/schema";
import { changeOne, createOne, exists, removeOne, type WriteContext } from "../../db/write";
import type { CategoryPatch, NewCategory } from "../../models/category";
import { ApiError } from "../../models/error";

/** Creates the category unless its name is taken, with its event, in one batch. */
export const createCategory = (ctx: WriteContext, fields: NewCategory) =>
	createOne(ctx, category, {
		steps: ({ insert, event }) => [insert(fields), event("category.created")],
	});

/** Applies the changes unless the category is missing, changed since `If-Match`, or the new name is taken. */
export const updateCategory = (ctx: WriteContext, id: number, changes: CategoryPatch) =>
	changeOne(ctx, category, id, {
		steps: ({ update, event }) => [update(changes), event("category.updated")],
	});

/** Deletes the category unless it changed since `If-Match` or pets still belong to it. */
export const deleteCategory = (ctx: WriteContext, id: number) =>
	removeOne(ctx, category, id, {
		refuse: [
			[
				exists(pets, eq(pets.categoryId, id)),
				() => new ApiError("category_in_use", `Category ${id} still has pets.`),
			],
		],
		steps: ({ remove, event }) => [remove(), event("category.deleted")],
	});
