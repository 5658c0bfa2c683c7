import { and, eq, gt, sql } from "drizzle-orm";
import { chain, write } from "../../db/batch";
import type { Db } from "../../db/client";
import {
	autoId,
	bump,
	exists,
	matchesETag,
	probe,
	rowState,
	whyUnchanged,
} from "../../db/conditional";
import { deleteResource } from "../../db/deletion";
import { nameKey, withNameKey } from "../../db/name-key";
import { recordEvent } from "../../db/outbox";
import { containing, indexable, petNames } from "../../db/pet-names";
import type { Slot } from "../../db/prepared";
import { inventoryItem, pet } from "../../db/resources";
import { categories, inventory, orders, pets } from "../../db/schema";
import { filterWalks, mergeWalks } from "../../db/walks";
import { ApiError } from "../../http/errors";
import {
	createdOrStored,
	type Keyed,
	keyedCreate,
} from "../../http/idempotency";
import { found, refusal } from "../../http/outcomes";
import type { Page } from "../../http/pagination";
import { byId } from "../../models/id";
import type { NewPet, Pet, PetPatch } from "../../models/pet";
import type { PetStatus } from "../../models/pet-status";

type TaggedPet = Pet & { etag: string };

const petNotFound = (id: number) =>
	new ApiError("not_found", `Pet ${id} does not exist.`);
const unknownCategory = (id: number) =>
	new ApiError("unknown_category", `Category ${id} does not exist.`);

type PetFilter = Page & {
	status?: PetStatus[];
	categoryId?: number;
	name?: string;
};

/**
 * The page of pets after `filter.after`, and the next one's first if there is one: a walk in id order per status
 * asked for (see {@link filterWalks}). A name of three characters or more is found through the trigram index; a
 * shorter one is checked pet by pet.
 */
export const listPets = (db: Db, filter: PetFilter): Promise<Pet[]> => {
	const key = filter.name === undefined ? undefined : nameKey(filter.name);
	const indexed = key !== undefined && indexable(key);
	// The walk's order: the index's rowid is the pet's id.
	const id = indexed ? petNames.rowid : pets.id;
	const walks = filterWalks(filter.status, (status) =>
		(indexed
			? db
					.select(pet.projection)
					.from(petNames)
					.innerJoin(pets, eq(pets.id, petNames.rowid))
					.$dynamic()
			: pet.select(db, pet.projection)
		)
			.where(
				and(
					indexed ? containing(key) : undefined,
					gt(id, filter.after),
					status && eq(pets.status, status),
					filter.categoryId === undefined
						? undefined
						: eq(pets.categoryId, filter.categoryId),
					// The exact test, also behind the index, whose tokenizer reads U+FFFE and U+FFFF as U+FFFD.
					// instr() rather than LIKE: `%` and `_` in the filter match literally.
					key === undefined
						? undefined
						: sql`instr(${pets.nameKey}, ${key}) > 0`,
				),
			)
			.orderBy(id)
			.limit(filter.limit + 1),
	);
	return mergeWalks(db, walks, filter.limit + 1, byId);
};

export const getPet = (db: Db, id: number): Promise<TaggedPet> =>
	found(pet.find(db, id), () => petNotFound(id));

/** A new pet's values, by name: see {@link creating}. */
type NewPetValues = {
	name: string;
	nameKey: string;
	categoryId: number;
	status: PetStatus;
	createdAt: string;
};

/**
 * Inserts the pet, only if its category exists (and its idempotency key is unused), with its empty inventory item,
 * its event and its idempotency record, in one batch.
 */
const creating = keyedCreate((db, $: Slot<NewPetValues>, key) => ({
	forgetExpired: key.forgetExpired,
	stored: key.stored,
	created: chain({
		pet: db
			.insert(pets)
			.select(
				db
					.select({
						id: autoId,
						name: sql`${$("name")}`.as("name"),
						nameKey: sql`${$("nameKey")}`.as("name_key"),
						categoryId: categories.id,
						status: sql`${$("status")}`.as("status"),
						version: sql`1`.as("version"),
					})
					.from(categories)
					.where(and(eq(categories.id, $("categoryId")), key.unused)),
			)
			.returning(pet.tagged),
		item: (changed) =>
			db.insert(inventory).select(
				db
					.select({
						petId: pets.id,
						quantity: sql`0`.as("quantity"),
						version: sql`1`.as("version"),
					})
					.from(pets)
					.where(and(eq(pets.id, pet.newest), changed)),
			),
		event: (changed) =>
			recordEvent(db, {
				type: "pet.created",
				resource: pet,
				where: eq(pets.id, pet.newest),
				changed,
				now: $("createdAt"),
			}),
		remember: key.remember(pet),
	}),
}));

/** Creates the pet (see {@link creating}); answers it, or the response stored for its idempotency key. */
export const createPet = async (
	db: Db,
	fields: NewPet,
	keyed: Keyed | undefined,
	now: number,
) => {
	const { stored, created } = await creating(
		db,
		{
			name: fields.name,
			nameKey: nameKey(fields.name),
			categoryId: fields.categoryId,
			status: fields.status,
			createdAt: new Date(now).toISOString(),
		},
		keyed,
	);
	const outcome = createdOrStored(created.pet, stored);
	if (outcome) return outcome;
	throw unknownCategory(fields.categoryId);
};

/**
 * Applies the changes only if the pet exists, still has an `If-Match` ETag (when given) and any new category
 * exists. A new status also changes the pet's inventory item, which records its own event.
 */
export const updatePet = async (
	db: Db,
	id: number,
	changes: PetPatch,
	ifMatch: string[] | undefined,
	now: number,
): Promise<TaggedPet> => {
	const current = matchesETag(pet.etag, ifMatch);
	const categoryExists =
		changes.categoryId === undefined
			? undefined
			: exists(categories, eq(categories.id, changes.categoryId));
	const changeable = and(eq(pets.id, id), current, categoryExists);
	const { guard, updated } = await write(db, {
		guard: probe(db, rowState(pets, eq(pets.id, id), current)),
		// First, while the old status can still be compared: the item's event only when its status moves.
		restatus:
			changes.status === undefined
				? undefined
				: chain({
						status: db
							.update(pets)
							.set({ status: changes.status })
							.where(and(changeable, sql`${pets.status} <> ${changes.status}`)),
						event: (changed) =>
							recordEvent(db, {
								type: "inventory.updated",
								resource: inventoryItem,
								where: eq(inventory.petId, id),
								changed,
								now,
							}),
					}),
		updated: chain({
			pet: db
				.update(pets)
				.set({ ...withNameKey(changes), version: bump(pets.version) })
				.where(changeable)
				.returning(pet.tagged),
			event: (changed) =>
				recordEvent(db, {
					type: "pet.updated",
					resource: pet,
					where: eq(pets.id, id),
					changed,
					now,
				}),
		}),
	});
	const [row] = updated.pet;
	if (row) return row;
	const [state] = guard;
	throw refusal(
		whyUnchanged(state),
		petNotFound(id),
		unknownCategory(changes.categoryId ?? 0),
	);
};

/** Deletes the pet (and, by cascade, its inventory item) unless it changed or has open orders. */
export const deletePet = async (
	db: Db,
	id: number,
	ifMatch: string[] | undefined,
	now: number,
): Promise<void> => {
	const why = await deleteResource(db, pet, {
		id,
		ifMatch,
		blocked: exists(
			orders,
			and(eq(orders.petId, id), eq(orders.complete, false)),
		),
		type: "pet.deleted",
		now,
	});
	if (why === undefined) return;
	throw refusal(
		why,
		petNotFound(id),
		new ApiError(
			"pet_has_open_orders",
			`Pet ${id} has open orders; complete or cancel them first.`,
		),
	);
};
