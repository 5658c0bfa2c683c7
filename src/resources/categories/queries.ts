import { and, eq, ne, sql } from "drizzle-orm";
import { withNameKey } from "../../db/name-key";
import type { Placeholders } from "../../db/prepared";
import { category } from "../../db/resources";
import { categories, pets } from "../../db/schema";
import {
	changeOne,
	defineCreate,
	exists,
	type WriteContext,
} from "../../db/write";
import type { NewCategory } from "../../models/category";
import { ApiError } from "../../models/error";
import { nameKey } from "../../models/name-key";

const nameTaken = (name: string) =>
	new ApiError("category_exists", `A category named "${name}" already exists.`);

/**
 * Creates the category unless its name is taken (the unique index on the folded name decides), with its event
 * (and, under an `Idempotency-Key`, its record), in one batch.
 */
const create = defineCreate(
	category,
	(
		db,
		fields: Placeholders<{
			name: string;
			nameKey: string;
			description: string | null;
		}>,
	) => ({
		insert: (allowed) =>
			db
				.insert(categories)
				.select(
					db
						.select({
							id: sql`NULL`.as("id"),
							name: sql`${fields.name}`.as("name"),
							nameKey: sql`${fields.nameKey}`.as("name_key"),
							description: sql`${fields.description}`.as("description"),
							version: sql`1`.as("version"),
						})
						.from(sql`(SELECT 1)`)
						// Always a WHERE: SQLite would read ON CONFLICT right after FROM as a join's ON.
						.where(allowed),
				)
				.onConflictDoNothing(),
		events: ["category.created"],
		refused: ({ name }) => nameTaken(name),
	}),
);

export const createCategory = (ctx: WriteContext, fields: NewCategory) =>
	create(
		ctx,
		withNameKey({ ...fields, description: fields.description ?? null }),
	);

/** Applies the changes unless the category is missing, changed since `If-Match`, or the new name is taken. */
export const updateCategory = (
	ctx: WriteContext,
	id: number,
	changes: Partial<{ name: string; description: string | null }>,
) =>
	changeOne(ctx, category, id, {
		set: withNameKey(changes),
		refuse:
			changes.name === undefined
				? undefined
				: {
						when: exists(
							categories,
							and(
								eq(categories.nameKey, nameKey(changes.name)),
								ne(categories.id, id),
							),
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
