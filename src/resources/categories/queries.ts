import { and, eq, gt, ne, not } from "drizzle-orm";
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
export const createCategory = async (
	db: Db,
	fields: NewCategory,
): Promise<TaggedCategory> => {
	const [row] = await db
		.insert(categories)
		.values({ ...fields, nameKey: nameKey(fields.name) })
		.onConflictDoNothing()
		.returning(categoryWithETag);
	if (!row) throw nameTaken(fields.name);
	return toCategory(row);
};

/** Applies the changes unless the category is missing, changed since `If-Match`, or the new name is taken. */
export const updateCategory = async (
	db: Db,
	id: number,
	changes: Partial<{ name: string; description: string | null }>,
	ifMatch: string[] | undefined,
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
	]);
	if (row) return toCategory(row);
	throw unchanged(state, categoryNotFound(id), nameTaken(changes.name ?? ""));
};

/** Deletes the category unless it changed since `If-Match` or pets still belong to it. */
export const deleteCategory = async (
	db: Db,
	id: number,
	ifMatch: string[] | undefined,
): Promise<void> => {
	const current = matchesETag(categoryETag, ifMatch);
	const inUse = exists(pets, eq(pets.categoryId, id));
	const [[state], deleted] = await db.batch([
		probe(db, rowState(categories, eq(categories.id, id), current)),
		db
			.delete(categories)
			.where(and(eq(categories.id, id), current, not(inUse)))
			.returning({ id: categories.id }),
	]);
	if (deleted.length > 0) return;
	throw unchanged(
		state,
		categoryNotFound(id),
		new ApiError("category_in_use", `Category ${id} still has pets.`),
	);
};
