import { and, eq, gt, not, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
	autoId,
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
import { containing, indexable, petNames } from "../../db/pet-names";
import { categories, inventory, orders, pets } from "../../db/schema";
import { filterWalks, mergeWalks } from "../../db/walks";
import { idOnly, recordEvent } from "../../events/record";
import { ApiError } from "../../http/errors";
import type { Page } from "../../http/pagination";
import { byId } from "../../models/id";
import type { NewPet, Pet, PetPatch } from "../../models/pet";
import type { PetStatus } from "../../models/pet-status";

const pet = {
	id: pets.id,
	name: pets.name,
	categoryId: pets.categoryId,
	status: pets.status,
};
const petETag = etagOf(pets.version);
const petWithETag = { ...pet, etag: petETag };

export type TaggedPet = Pet & { etag: string };

const petNotFound = (id: number) =>
	new ApiError("not_found", `Pet ${id} does not exist.`);
const unknownCategory = (id: number) =>
	new ApiError("unknown_category", `Category ${id} does not exist.`);

export type PetFilter = Page & {
	status?: PetStatus[];
	categoryId?: number;
	name?: string;
};

/**
 * The queries that read the page of pets after `filter.after`, each in id order (see {@link filterWalks}), as
 * builders so that tests can read their plans. A name of three characters or more is found through the
 * trigram index; a shorter one is checked pet by pet.
 */
export const petWalks = (db: Db, filter: PetFilter) => {
	const key = filter.name === undefined ? undefined : nameKey(filter.name);
	const indexed = key !== undefined && indexable(key);
	// The walk's order: the index's rowid is the pet's id.
	const id = indexed ? petNames.rowid : pets.id;
	return filterWalks(filter.status, (status) =>
		(indexed
			? db
					.select(pet)
					.from(petNames)
					.innerJoin(pets, eq(pets.id, petNames.rowid))
					.$dynamic()
			: db.select(pet).from(pets).$dynamic()
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
};

/** The page of pets after `filter.after`, and the next one's first if there is one. */
export const listPets = (db: Db, filter: PetFilter): Promise<Pet[]> =>
	mergeWalks(db, petWalks(db, filter), filter.limit + 1, byId);

export const getPet = (db: Db, id: number): Promise<TaggedPet> =>
	foundOr(db.select(petWithETag).from(pets).where(eq(pets.id, id)).get(), () =>
		petNotFound(id),
	);

/** Inserts the pet, only if its category exists, and its empty inventory item in one batch. */
/** A pet as the API answers it, as JSON built in SQL: what its events carry. */
const petJson = sql`json_object('id', ${pets.id}, 'name', ${pets.name}, 'categoryId', ${pets.categoryId}, 'status', ${pets.status})`;
const petPath = sql`'/pets/' || ${pets.id}`;

export const createPet = async (
	db: Db,
	fields: NewPet,
	now: number,
): Promise<TaggedPet> => {
	const [[created]] = await db.batch([
		db
			.insert(pets)
			.select(
				db
					.select({
						id: autoId,
						name: sql`${fields.name}`.as("name"),
						nameKey: sql`${nameKey(fields.name)}`.as("name_key"),
						categoryId: categories.id,
						status: sql`${fields.status}`.as("status"),
						version: sql`1`.as("version"),
					})
					.from(categories)
					.where(eq(categories.id, fields.categoryId)),
			)
			.returning(petWithETag),
		// changes() guards against a stale last_insert_rowid() when the pet was not inserted.
		db.insert(inventory).select(
			db
				.select({
					petId: pets.id,
					quantity: sql`0`.as("quantity"),
					version: sql`1`.as("version"),
				})
				.from(pets)
				.where(and(eq(pets.id, sql`last_insert_rowid()`), sql`changes() = 1`)),
		),
		// The inventory item's rowid is its pet's id.
		recordEvent(db, {
			type: "pet.created",
			subject: petPath,
			data: petJson,
			source: pets,
			where: eq(pets.id, sql`last_insert_rowid()`),
			now,
		}),
	]);
	if (!created) throw unknownCategory(fields.categoryId);
	return created;
};

/** Applies the changes only if the pet exists, still has an `If-Match` ETag (when given) and any new category exists. */
export const updatePet = async (
	db: Db,
	id: number,
	changes: PetPatch,
	ifMatch: string[] | undefined,
	now: number,
): Promise<TaggedPet> => {
	const current = matchesETag(petETag, ifMatch);
	const categoryExists =
		changes.categoryId === undefined
			? sql`1`
			: exists(categories, eq(categories.id, changes.categoryId));
	const [[state], [updated]] = await db.batch([
		probe(db, rowState(pets, eq(pets.id, id), current)),
		db
			.update(pets)
			.set({ ...withNameKey(changes), version: bump(pets.version) })
			.where(and(eq(pets.id, id), current, categoryExists))
			.returning(petWithETag),
		recordEvent(db, {
			type: "pet.updated",
			subject: petPath,
			data: petJson,
			source: pets,
			where: eq(pets.id, id),
			now,
		}),
	]);
	if (updated) return updated;
	throw unchanged(
		state,
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
	const current = matchesETag(petETag, ifMatch);
	const conditions = {
		...rowState(pets, eq(pets.id, id), current),
		openOrders: exists(
			orders,
			and(eq(orders.petId, id), eq(orders.complete, false)),
		),
	};
	const [[state], deleted] = await db.batch([
		probe(db, conditions),
		db
			.delete(pets)
			.where(and(eq(pets.id, id), current, not(conditions.openOrders)))
			.returning({ id: pets.id }),
		recordEvent(db, {
			type: "pet.deleted",
			subject: sql`${`/pets/${id}`}`,
			data: idOnly(id),
			now,
		}),
	]);
	if (deleted.length > 0) return;
	throw unchanged(
		state,
		petNotFound(id),
		new ApiError(
			"pet_has_open_orders",
			`Pet ${id} has open orders; complete or cancel them first.`,
		),
	);
};
