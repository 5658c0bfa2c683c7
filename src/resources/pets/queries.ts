import { and, eq, gt, inArray, not, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { autoId, exists, probe } from "../../db/conditional";
import { categories, inventory, orders, pets } from "../../db/schema";
import type { NewPet, Pet, PetPatch } from "../../models/pet";
import type { PetStatus } from "../../models/pet-status";

export type PetFilter = {
	after: number;
	limit: number;
	status?: PetStatus[];
	categoryId?: number;
	name?: string;
};

export const listPets = (db: Db, filter: PetFilter): Promise<Pet[]> =>
	db
		.select()
		.from(pets)
		.where(
			and(
				gt(pets.id, filter.after),
				filter.status && inArray(pets.status, filter.status),
				filter.categoryId === undefined
					? undefined
					: eq(pets.categoryId, filter.categoryId),
				// instr() rather than LIKE: `%` and `_` in the filter match literally.
				filter.name === undefined
					? undefined
					: sql`instr(lower(${pets.name}), lower(${filter.name})) > 0`,
			),
		)
		.orderBy(pets.id)
		.limit(filter.limit + 1);

export const getPet = (db: Db, id: number): Promise<Pet | undefined> =>
	db.select().from(pets).where(eq(pets.id, id)).get();

/** Inserts the pet, only if its category exists, and its empty inventory item in one batch. */
export const createPet = async (
	db: Db,
	pet: NewPet,
): Promise<Pet | undefined> => {
	const [[created]] = await db.batch([
		db
			.insert(pets)
			.select(
				db
					.select({
						id: autoId,
						name: sql`${pet.name}`.as("name"),
						categoryId: categories.id,
						status: sql`${pet.status}`.as("status"),
					})
					.from(categories)
					.where(eq(categories.id, pet.categoryId)),
			)
			.returning(),
		// changes() guards against a stale last_insert_rowid() when the pet was not inserted.
		db.insert(inventory).select(
			db
				.select({ petId: pets.id, quantity: sql`0`.as("quantity") })
				.from(pets)
				.where(and(eq(pets.id, sql`last_insert_rowid()`), sql`changes() = 1`)),
		),
	]);
	return created;
};

export type PetUpdate = { pet: Pet } | { missing: "pet" | "category" };

/** Applies the changes only if the pet and any new category exist, and says which was missing otherwise. */
export const updatePet = async (
	db: Db,
	id: number,
	changes: PetPatch,
): Promise<PetUpdate> => {
	const categoryExists: SQL =
		changes.categoryId === undefined
			? sql`1`
			: exists(categories, eq(categories.id, changes.categoryId));
	const [[pet], [found]] = await db.batch([
		db
			.update(pets)
			.set(changes)
			.where(and(eq(pets.id, id), categoryExists))
			.returning(),
		probe(db, { pet: exists(pets, eq(pets.id, id)), category: categoryExists }),
	]);
	if (pet) return { pet };
	return { missing: found.pet ? "category" : "pet" };
};

/** Deletes the pet (and, by cascade, its inventory item) unless it has open orders. */
export const deletePet = async (
	db: Db,
	id: number,
): Promise<"deleted" | "not_found" | "pet_has_open_orders"> => {
	const openOrders = exists(
		orders,
		and(eq(orders.petId, id), eq(orders.complete, false)),
	);
	const [[found], deleted] = await db.batch([
		probe(db, { pet: exists(pets, eq(pets.id, id)) }),
		db
			.delete(pets)
			.where(and(eq(pets.id, id), not(openOrders)))
			.returning({ id: pets.id }),
	]);
	if (deleted.length > 0) return "deleted";
	return found.pet ? "pet_has_open_orders" : "not_found";
};
