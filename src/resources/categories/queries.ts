import { and, eq, gt, ne, not, sql } from "drizzle-orm";
import { chain, write } from "../../db/batch";
import type { Db } from "../../db/client";
import {
	autoId,
	bump,
	exists,
	matchesETag,
	oneRow,
	probe,
	rowState,
	whyUnchanged,
} from "../../db/conditional";
import { deleteResource } from "../../db/deletion";
import { nameKey, withNameKey } from "../../db/name-key";
import { recordEvent } from "../../db/outbox";
import type { Slot } from "../../db/prepared";
import { category } from "../../db/resources";
import { categories, pets } from "../../db/schema";
import { ApiError } from "../../http/errors";
import {
	createdOrStored,
	type Keyed,
	keyedCreate,
} from "../../http/idempotency";
import { found, refusal } from "../../http/outcomes";
import type { Page } from "../../http/pagination";
import type { Category, NewCategory } from "../../models/category";

type TaggedCategory = Category & { etag: string };

const categoryNotFound = (id: number) =>
	new ApiError("not_found", `Category ${id} does not exist.`);
const nameTaken = (name: string) =>
	new ApiError("category_exists", `A category named "${name}" already exists.`);

export const listCategories = async (
	db: Db,
	page: Page,
): Promise<Category[]> => {
	const rows = await category
		.select(db, category.projection)
		.where(gt(categories.id, page.after))
		.orderBy(categories.id)
		.limit(page.limit + 1);
	return rows.map(category.answer);
};

export const getCategory = async (
	db: Db,
	id: number,
): Promise<TaggedCategory> =>
	category.answer(
		await found(category.find(db, id), () => categoryNotFound(id)),
	);

/** A new category's values, by name: see {@link creating}. */
type NewCategoryValues = {
	name: string;
	nameKey: string;
	description: string | null;
	createdAt: string;
};

/**
 * Inserts the category unless its name is taken (the unique index on the folded name decides) or its
 * idempotency key was used, with its event and idempotency record.
 */
const creating = keyedCreate((db, $: Slot<NewCategoryValues>, key) => ({
	forgetExpired: key.forgetExpired,
	stored: key.stored,
	created: chain({
		category: db
			.insert(categories)
			.select(
				db
					.select({
						id: autoId,
						name: sql`${$("name")}`.as("name"),
						nameKey: sql`${$("nameKey")}`.as("name_key"),
						description: sql`${$("description")}`.as("description"),
						version: sql`1`.as("version"),
					})
					.from(oneRow)
					// Always a WHERE: SQLite would read ON CONFLICT right after FROM as a join's ON.
					.where(key.unused),
			)
			.onConflictDoNothing()
			.returning(category.tagged),
		event: (changed) =>
			recordEvent(db, {
				type: "category.created",
				resource: category,
				where: eq(categories.id, category.newest),
				changed,
				now: $("createdAt"),
			}),
		remember: key.remember(category),
	}),
}));

/** Creates the category (see {@link creating}); answers it, or the response stored for its idempotency key. */
export const createCategory = async (
	db: Db,
	fields: NewCategory,
	keyed: Keyed | undefined,
	now: number,
) => {
	const { stored, created } = await creating(
		db,
		{
			name: fields.name,
			nameKey: nameKey(fields.name),
			description: fields.description ?? null,
			createdAt: new Date(now).toISOString(),
		},
		keyed,
	);
	const outcome = createdOrStored(
		created.category.map(category.answer),
		stored,
	);
	if (outcome) return outcome;
	throw nameTaken(fields.name);
};

/** Applies the changes unless the category is missing, changed since `If-Match`, or the new name is taken. */
export const updateCategory = async (
	db: Db,
	id: number,
	changes: Partial<{ name: string; description: string | null }>,
	ifMatch: string[] | undefined,
	now: number,
): Promise<TaggedCategory> => {
	const current = matchesETag(category.etag, ifMatch);
	const nameFree =
		changes.name === undefined
			? undefined
			: not(
					exists(
						categories,
						and(
							eq(categories.nameKey, nameKey(changes.name)),
							ne(categories.id, id),
						),
					),
				);
	const { guard, updated } = await write(db, {
		guard: probe(db, rowState(categories, eq(categories.id, id), current)),
		updated: chain({
			category: db
				.update(categories)
				.set({ ...withNameKey(changes), version: bump(categories.version) })
				.where(and(eq(categories.id, id), current, nameFree))
				.returning(category.tagged),
			event: (changed) =>
				recordEvent(db, {
					type: "category.updated",
					resource: category,
					where: eq(categories.id, id),
					changed,
					now,
				}),
		}),
	});
	const [row] = updated.category;
	if (row) return category.answer(row);
	const [state] = guard;
	throw refusal(
		whyUnchanged(state),
		categoryNotFound(id),
		nameTaken(changes.name ?? ""),
	);
};

/** Deletes the category unless it changed since `If-Match` or pets still belong to it. */
export const deleteCategory = async (
	db: Db,
	id: number,
	ifMatch: string[] | undefined,
	now: number,
): Promise<void> => {
	const why = await deleteResource(db, category, {
		id,
		ifMatch,
		blocked: exists(pets, eq(pets.categoryId, id)),
		type: "category.deleted",
		now,
	});
	if (why === undefined) return;
	throw refusal(
		why,
		categoryNotFound(id),
		new ApiError("category_in_use", `Category ${id} still has pets.`),
	);
};
