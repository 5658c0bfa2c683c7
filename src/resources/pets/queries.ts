import { and, eq, exists, ne, not, sql } from "drizzle-orm";
import { category, inventoryItem, pet } from "../../db/resources";
import { inventory, orders, pets } from "../../db/schema";
import {
	afterChange,
	eventRow,
	idempotencyRecord,
	insertWhere,
	runWrite,
	type WriteContext,
} from "../../db/write";
import { ApiError } from "../../models/error";
import type { NewPet } from "../../models/pet";

const unknownCategory = (categoryId: number) =>
	new ApiError("unknown_category", `Category ${categoryId} does not exist.`);

/** Creates the pet, only if its category exists, with its empty inventory item and its event, in one batch. */
export const createPet = async (ctx: WriteContext, fields: NewPet) => {
	const { db } = ctx;
	const inCategory = category.has(db, fields.categoryId);
	const keyed = idempotencyRecord(ctx, pet);
	const probe = await runWrite(db, {
		before: keyed.forget,
		write: insertWhere(db, pets, pet.folded(fields), and(inCategory, keyed.unused)),
		after: [
			insertWhere(db, inventory, { petId: pet.newest }, afterChange),
			eventRow(ctx, "pet.created", pet, pet.newest),
			...keyed.record,
		],
		probe: { pet: pet.answerAt(db, pet.newest), inCategory, stored: keyed.stored },
	});
	if (probe.written && probe.pet) return { pet: probe.pet, replayed: false };
	if (probe.stored) return { pet: keyed.replay(probe.stored), replayed: true };
	if (!probe.inCategory) throw unknownCategory(fields.categoryId);
	throw pet.unexplained();
};

/** What a change of a pet sets: a patch's fields, or a replacement's (an optional one cleared to null). */
type PetChanges = Omit<Partial<typeof pets.$inferInsert>, "id" | "nameKey" | "version">;

/** Applies the changes to a current pet in an existing category; a new status moves its inventory item too. */
export const updatePet = async (ctx: WriteContext, id: number, changes: PetChanges) => {
	const { db, ifMatch } = ctx;
	const { categoryId, status } = changes;
	const inCategory = categoryId === undefined ? sql`1` : category.has(db, categoryId);
	const allowed = and(eq(pets.id, id), pet.matches(ifMatch), inCategory);
	const probe = await runWrite(db, {
		// First, while the old status can be compared: the item's event only when its status moves. It leaves the
		// version to the write, whose If-Match a bump here would fail.
		before:
			status === undefined
				? []
				: [
						db
							.update(pets)
							.set({ status })
							.where(and(allowed, ne(pets.status, status))),
						eventRow(ctx, "inventory.updated", inventoryItem, id),
					],
		write: db
			.update(pets)
			.set({ ...pet.folded(changes), version: sql`${pets.version} + 1` })
			.where(allowed),
		after: [eventRow(ctx, "pet.updated", pet, id)],
		probe: { pet: pet.answerAt(db, id), ...pet.state(db, id, ifMatch), inCategory },
	});
	if (probe.written && probe.pet) return probe.pet;
	pet.mustBeCurrent(id, probe);
	if (!probe.inCategory && categoryId !== undefined) throw unknownCategory(categoryId);
	throw pet.unexplained(id);
};

/** Deletes the pet (and, by cascade, its inventory item) unless it changed or has open orders. */
export const deletePet = async (ctx: WriteContext, id: number) => {
	const { db, ifMatch } = ctx;
	const open = and(eq(orders.petId, id), eq(orders.complete, false));
	const openOrders = exists(db.select({ id: orders.id }).from(orders).where(open));
	const probe = await runWrite(db, {
		write: db.delete(pets).where(and(eq(pets.id, id), pet.matches(ifMatch), not(openOrders))),
		after: [eventRow(ctx, "pet.deleted", pet.gone(id))],
		probe: { ...pet.state(db, id, ifMatch), openOrders },
	});
	if (probe.written) return;
	pet.mustBeCurrent(id, probe);
	if (!probe.openOrders) throw pet.unexplained(id);
	throw new ApiError(
		"pet_has_open_orders",
		`Pet ${id} has open orders; complete or cancel them first.`,
	);
};
