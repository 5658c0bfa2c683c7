import { and, eq, gt, ne, not, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
	autoId,
	bump,
	etagOf,
	exists,
	matchesETag,
	oneRow,
	probe,
	rowState,
} from "../../db/conditional";
import { nameKey, withNameKey } from "../../db/name-key";
import { categories, pets } from "../../db/schema";
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

const nameTaken = (name: string, exceptId?: number): SQL =>
	exists(
		categories,
		and(
			eq(categories.nameKey, nameKey(name)),
			exceptId === undefined ? undefined : ne(categories.id, exceptId),
		),
	);

export const listCategories = async (
	db: Db,
	page: { after: number; limit: number },
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
): Promise<TaggedCategory | undefined> => {
	const row = await db
		.select(categoryWithETag)
		.from(categories)
		.where(eq(categories.id, id))
		.get();
	return row && toCategory(row);
};

/** Inserts the category unless its name is taken (case-insensitively); undefined when it is. */
export const createCategory = async (
	db: Db,
	fields: NewCategory,
): Promise<TaggedCategory | undefined> => {
	const [row] = await db
		.insert(categories)
		.select(
			db
				.select({
					id: autoId,
					name: sql`${fields.name}`.as("name"),
					nameKey: sql`${nameKey(fields.name)}`.as("name_key"),
					description: sql`${fields.description ?? null}`.as("description"),
					version: sql`1`.as("version"),
				})
				.from(oneRow)
				.where(not(nameTaken(fields.name))),
		)
		.returning(categoryWithETag);
	return row && toCategory(row);
};

export type CategoryUpdate =
	| { category: TaggedCategory }
	| { failure: "not_found" | "precondition_failed" | "category_exists" };

/** Applies the changes unless the category is missing, changed since `If-Match`, or the name is taken. */
export const updateCategory = async (
	db: Db,
	id: number,
	changes: Partial<{ name: string; description: string | null }>,
	ifMatch: string[] | undefined,
): Promise<CategoryUpdate> => {
	const current = matchesETag(categoryETag, ifMatch);
	const taken =
		changes.name === undefined ? sql`0` : nameTaken(changes.name, id);
	const [[state], [row]] = await db.batch([
		probe(db, {
			...rowState(categories, eq(categories.id, id), current),
		}),
		db
			.update(categories)
			.set({ ...withNameKey(changes), version: bump(categories.version) })
			.where(and(eq(categories.id, id), current, not(taken)))
			.returning(categoryWithETag),
	]);
	if (row) return { category: toCategory(row) };
	if (!state.found) return { failure: "not_found" };
	return {
		failure: state.current ? "category_exists" : "precondition_failed",
	};
};

/** Deletes the category unless it changed since `If-Match` or pets still belong to it. */
export const deleteCategory = async (
	db: Db,
	id: number,
	ifMatch: string[] | undefined,
): Promise<
	"deleted" | "not_found" | "precondition_failed" | "category_in_use"
> => {
	const current = matchesETag(categoryETag, ifMatch);
	const inUse = exists(pets, eq(pets.categoryId, id));
	const [[state], deleted] = await db.batch([
		probe(db, {
			...rowState(categories, eq(categories.id, id), current),
		}),
		db
			.delete(categories)
			.where(and(eq(categories.id, id), current, not(inUse)))
			.returning({ id: categories.id }),
	]);
	if (deleted.length > 0) return "deleted";
	if (!state.found) return "not_found";
	return state.current ? "category_in_use" : "precondition_failed";
};
