import { and, eq, gt, ne, not, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
	bump,
	etagOf,
	exists,
	foundOr,
	matchesETag,
	probe,
	rowState,
	unchanged,
} from "../../db/conditional";
import { nameKey, withNameKey } from "../../db/name-key";
import { categories, pets } from "../../db/schema";
import { idOnly, recordEvent } from "../../events/record";
import { ApiError } from "../../http/errors";
import type { Page } from "../../http/pagination";
import type { Category, NewCategory } from "../../models/category";

const category = {
	id: categories.id,
	name: categories.name,
	description: categories.description,
};
const categoryETag = etagOf(categories.version);
const categoryWithETag = { ...category, etag: categoryETag };

type Row = { id: number; name: string; description: string | null };
export type TaggedCategory = Category & { etag: string };

/** The API omits an absent description rather than sending null. */
const toCategory = <T extends Row>({ description, ...rest }: T) =>
	description === null ? rest : { ...rest, description };

const categoryNotFound = (id: number) =>
	new ApiError("not_found", `Category ${id} does not exist.`);
const nameTaken = (name: string) =>
	new ApiError("category_exists", `A category named "${name}" already exists.`);

export const listCategories = async (
	db: Db,
	page: Page,
): Promise<Category[]> => {
	const rows = await db
		.select(category)
		.from(categories)
		.where(gt(categories.id, page.after))
		.orderBy(categories.id)
		.limit(page.limit + 1);
	return rows.map(toCategory);
};

export const getCategory = async (
	db: Db,
	id: number,
): Promise<TaggedCategory> => {
	const row = await foundOr(
		db
			.select(categoryWithETag)
			.from(categories)
			.where(eq(categories.id, id))
			.get(),
		() => categoryNotFound(id),
	);
	return toCategory(row);
};

/** Inserts the category unless its name is taken: the unique index on the folded name decides. */
/** A category as the API answers it (no `description` when it has none), as JSON built in SQL. */
const categoryJson = sql`CASE WHEN ${categories.description} IS NULL
	THEN json_object('id', ${categories.id}, 'name', ${categories.name})
	ELSE json_object('id', ${categories.id}, 'name', ${categories.name}, 'description', ${categories.description}) END`;
const categoryPath = sql`'/categories/' || ${categories.id}`;

export const createCategory = async (
	db: Db,
	fields: NewCategory,
	now: number,
): Promise<TaggedCategory> => {
	const [[row]] = await db.batch([
		db
			.insert(categories)
			.values({ ...fields, nameKey: nameKey(fields.name) })
			.onConflictDoNothing()
			.returning(categoryWithETag),
		recordEvent(db, {
			type: "category.created",
			subject: categoryPath,
			data: categoryJson,
			source: categories,
			where: eq(categories.id, sql`last_insert_rowid()`),
			now,
		}),
	]);
	if (!row) throw nameTaken(fields.name);
	return toCategory(row);
};

/** Applies the changes unless the category is missing, changed since `If-Match`, or the new name is taken. */
export const updateCategory = async (
	db: Db,
	id: number,
	changes: Partial<{ name: string; description: string | null }>,
	ifMatch: string[] | undefined,
	now: number,
): Promise<TaggedCategory> => {
	const current = matchesETag(categoryETag, ifMatch);
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
	const [[state], [row]] = await db.batch([
		probe(db, rowState(categories, eq(categories.id, id), current)),
		db
			.update(categories)
			.set({ ...withNameKey(changes), version: bump(categories.version) })
			.where(and(eq(categories.id, id), current, nameFree))
			.returning(categoryWithETag),
		recordEvent(db, {
			type: "category.updated",
			subject: categoryPath,
			data: categoryJson,
			source: categories,
			where: eq(categories.id, id),
			now,
		}),
	]);
	if (row) return toCategory(row);
	throw unchanged(state, categoryNotFound(id), nameTaken(changes.name ?? ""));
};

/** Deletes the category unless it changed since `If-Match` or pets still belong to it. */
export const deleteCategory = async (
	db: Db,
	id: number,
	ifMatch: string[] | undefined,
	now: number,
): Promise<void> => {
	const current = matchesETag(categoryETag, ifMatch);
	const inUse = exists(pets, eq(pets.categoryId, id));
	const [[state], deleted] = await db.batch([
		probe(db, rowState(categories, eq(categories.id, id), current)),
		db
			.delete(categories)
			.where(and(eq(categories.id, id), current, not(inUse)))
			.returning({ id: categories.id }),
		recordEvent(db, {
			type: "category.deleted",
			subject: sql`${`/categories/${id}`}`,
			data: idOnly(id),
			now,
		}),
	]);
	if (deleted.length > 0) return;
	throw unchanged(
		state,
		categoryNotFound(id),
		new ApiError("category_in_use", `Category ${id} still has pets.`),
	);
};
