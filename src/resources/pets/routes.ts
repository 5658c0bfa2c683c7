import { z } from "@hono/zod-openapi";
import { pet } from "../../db/resources";
import { linkHeader, pageQuery } from "../../http/pagination";
import { createdContent, jsonBody, jsonContent } from "../../http/responses";
import { apiRoute, type Tag } from "../../http/route";
import { idParam } from "../../models/id";
import { limits } from "../../models/limits";
import { nameKey } from "../../models/name-key";
import { NewPet, Pet, PetPatch, Pets } from "../../models/pet";
import { statusQuery } from "../../models/pet-status";
import { printingCharacters, text } from "../../models/text";

const tag: Tag = {
	name: "Animals",
	title: "Pets for sale",
	description: "The pets themselves.",
	icon: "dog",
	parent: "Pets",
};
const nameTooShort =
	"must hold at least 3 visible characters: the name filter searches an index of every run of three; leave it out to list every pet";
const params = z.object({ petId: idParam("petId") });
const item = { path: pet.itemPath, conditional: true, tag } as const;
const change = { ...item, scope: "pets:write" } as const;

export const listPets = apiRoute({
	method: "get",
	path: pet.path,
	operationId: "listPets",
	tag,
	summary: "List pets",
	description: `Pets in id order, filtered by status (repeatable), category and a case-insensitive name substring. A request examines at most ${limits.nameMatchesPerRequest} pets whose name holds the substring: a page of a broad name with other filters may hold fewer pets than \`limit\`, even none, and still link to the next.`,
	request: {
		query: z.object({
			...pageQuery,
			status: statusQuery,
			categoryId: idParam("categoryId", "query").optional(),
			name: text(limits.petName)
				// Every list reads a bounded number of rows: the name index holds runs of three characters.
				.min(3, nameTooShort)
				.refine((value) => printingCharacters(nameKey(value)) >= 3, nameTooShort)
				.optional()
				.openapi({
					description:
						"Case-insensitive substring of the name, at least three visible characters long (found through an index of every run of three); `%` and `_` match literally.",
					param: { name: "name", in: "query", example: "bel" },
				}),
		}),
	},
	responses: { 200: { ...jsonContent(Pets, "A page of pets."), headers: linkHeader } },
});

export const createPet = apiRoute({
	method: "post",
	path: pet.path,
	scope: "pets:write",
	operationId: "createPet",
	idempotent: true,
	tag,
	summary: "Add a pet",
	description: "Creates the pet and its inventory item (quantity 0) atomically.",
	request: { body: jsonBody(NewPet, "The pet to add.") },
	errors: ["unknown_category"],
	responses: { 201: createdContent(Pet, "The new pet.") },
});

export const getPetById = apiRoute({
	...item,
	method: "get",
	operationId: "getPetById",
	summary: "Find a pet by id",
	description: "One pet.",
	lifecycle: { deprecated: { since: "2026-11-20", sunset: "2027-06-30" } },
	request: { params },
	errors: ["not_found"],
	responses: { 200: jsonContent(Pet, "The pet.") },
});

export const replacePet = apiRoute({
	...change,
	method: "put",
	operationId: "replacePet",
	summary: "Replace a pet",
	description: "Replaces every field; an omitted status becomes `available`.",
	request: { params, body: jsonBody(NewPet, "The pet's new state.") },
	errors: ["not_found", "unknown_category"],
	responses: { 200: jsonContent(Pet, "The replaced pet.") },
});

export const updatePet = apiRoute({
	...change,
	method: "patch",
	operationId: "updatePet",
	summary: "Update a pet",
	description: "Changes the given fields (at least one) and keeps the rest.",
	request: { params, body: jsonBody(PetPatch, "The fields to change.") },
	errors: ["not_found", "unknown_category"],
	responses: { 200: jsonContent(Pet, "The updated pet.") },
});

export const deletePet = apiRoute({
	...change,
	method: "delete",
	operationId: "deletePet",
	summary: "Delete a pet",
	description: "Deletes the pet and its inventory item; a pet with open orders cannot be deleted.",
	request: { params },
	errors: ["not_found", "pet_has_open_orders"],
	responses: { 204: { description: "Deleted." } },
});
