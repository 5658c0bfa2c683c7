import { and, eq, gt, ne, not, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { autoId, exists, oneRow, probe } from "../../db/conditional";
import { categories, pets } from "../../db/schema";
import type { Category, NewCategory } from "../../models/category";

type Row = typeof categories.$inferSelect;

/** The API omits an absent description rather than sending null. */
const toCategory = ({ description, ...rest }: Row): Category =>
	description === null ? rest : { ...rest, description };

const nameTaken = (name: string, exceptId?: number): SQL =>
	exists(
		categories,
		and(
			sql`lower(${categories.name}) = lower(${name})`,
			exceptId === undefined ? undefined : ne(categories.id, exceptId),
		),
	);

export const listCategories = async (
	db: Db,
	page: { after: number; limit: number },
): Promise<Category[]> => {
	const rows = await db
		.select()
		.from(categories)
		.where(gt(categories.id, page.after))
		.orderBy(categories.id)
		.limit(page.limit + 1);
	return rows.map(toCategory);
};

export const getCategory = async (
	db: Db,
	id: number,
): Promise<Category | undefined> => {
	const row = await db
		.select()
		.from(categories)
		.where(eq(categories.id, id))
		.get();
	return row && toCategory(row);
};

/** Inserts the category unless its name is taken (case-insensitively); undefined when it is. */
export const createCategory = async (
	db: Db,
	category: NewCategory,
): Promise<Category | undefined> => {
	const [row] = await db
		.insert(categories)
		.select(
			db
				.select({
					id: autoId,
					name: sql`${category.name}`.as("name"),
					description: sql`${category.description ?? null}`.as("description"),
				})
				.from(oneRow)
				.where(not(nameTaken(category.name))),
		)
		.returning();
	return row && toCategory(row);
};

export type CategoryUpdate =
	| { category: Category }
	| { failure: "not_found" | "category_exists" };

/** Applies the changes unless the category is missing or the new name is taken by another one. */
export const updateCategory = async (
	db: Db,
	id: number,
	changes: Partial<{ name: string; description: string | null }>,
): Promise<CategoryUpdate> => {
	const taken =
		changes.name === undefined ? sql`0` : nameTaken(changes.name, id);
	const [[found], [row]] = await db.batch([
		probe(db, { category: exists(categories, eq(categories.id, id)) }),
		db
			.update(categories)
			.set(changes)
			.where(and(eq(categories.id, id), not(taken)))
			.returning(),
	]);
	if (row) return { category: toCategory(row) };
	return { failure: found.category ? "category_exists" : "not_found" };
};

/** Deletes the category unless pets still belong to it. */
export const deleteCategory = async (
	db: Db,
	id: number,
): Promise<"deleted" | "not_found" | "category_in_use"> => {
	const inUse = exists(pets, eq(pets.categoryId, id));
	const [[found], deleted] = await db.batch([
		probe(db, { category: exists(categories, eq(categories.id, id)) }),
		db
			.delete(categories)
			.where(and(eq(categories.id, id), not(inUse)))
			.returning({ id: categories.id }),
	]);
	if (deleted.length > 0) return "deleted";
	return found.category ? "category_in_use" : "not_found";
};
