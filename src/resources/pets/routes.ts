import { createRoute, z } from "@hono/zod-openapi";
import { linkHeader, pageQuery } from "../../http/pagination";
import { errorResponses, jsonBody, jsonContent } from "../../http/responses";
import { idParam } from "../../models/id";
import { limits } from "../../models/limits";
import { NewPet, Pet, PetPatch, Pets } from "../../models/pet";
import { statusQuery } from "../../models/pet-status";

const tags = ["Animals"];
const params = z.object({ petId: idParam("petId") });
const locationHeader = {
	Location: {
		description: "Where the new pet lives.",
		schema: { type: "string" as const },
	},
};

export const listPets = createRoute({
	method: "get",
	path: "/pets",
	operationId: "listPets",
	tags,
	summary: "List pets",
	description:
		"Pets in id order, filtered by status (repeatable), category and a case-insensitive name substring.",
	request: {
		query: z.object({
			...pageQuery,
			status: statusQuery,
			categoryId: idParam("categoryId", "query").optional(),
			name: z.string().min(1).max(limits.petName).optional().openapi({
				description:
					"Case-insensitive substring of the name; `%` and `_` match literally.",
				example: "re",
			}),
		}),
	},
	responses: {
		200: { ...jsonContent(Pets, "A page of pets."), headers: linkHeader },
		...errorResponses("validation_error", "internal_error"),
	},
});

export const createPet = createRoute({
	method: "post",
	path: "/pets",
	operationId: "createPet",
	tags,
	summary: "Add a pet",
	description:
		"Creates the pet and its inventory item (quantity 0) atomically.",
	request: { body: jsonBody(NewPet, "The pet to add.") },
	responses: {
		201: { ...jsonContent(Pet, "The new pet."), headers: locationHeader },
		...errorResponses(
			"validation_error",
			"malformed_json",
			"unsupported_media_type",
			"unknown_category",
			"internal_error",
		),
	},
});

export const getPetById = createRoute({
	method: "get",
	path: "/pets/{petId}",
	operationId: "getPetById",
	tags,
	summary: "Find a pet by id",
	description: "One pet.",
	request: { params },
	responses: {
		200: jsonContent(Pet, "The pet."),
		...errorResponses("validation_error", "not_found", "internal_error"),
	},
});

export const replacePet = createRoute({
	method: "put",
	path: "/pets/{petId}",
	operationId: "replacePet",
	tags,
	summary: "Replace a pet",
	description: "Replaces every field; an omitted status becomes `available`.",
	request: { params, body: jsonBody(NewPet, "The pet's new state.") },
	responses: {
		200: jsonContent(Pet, "The replaced pet."),
		...errorResponses(
			"validation_error",
			"malformed_json",
			"unsupported_media_type",
			"not_found",
			"unknown_category",
			"internal_error",
		),
	},
});

export const updatePet = createRoute({
	method: "patch",
	path: "/pets/{petId}",
	operationId: "updatePet",
	tags,
	summary: "Update a pet",
	description: "Changes the given fields (at least one) and keeps the rest.",
	request: { params, body: jsonBody(PetPatch, "The fields to change.") },
	responses: {
		200: jsonContent(Pet, "The updated pet."),
		...errorResponses(
			"validation_error",
			"malformed_json",
			"unsupported_media_type",
			"not_found",
			"unknown_category",
			"internal_error",
		),
	},
});

export const deletePet = createRoute({
	method: "delete",
	path: "/pets/{petId}",
	operationId: "deletePet",
	tags,
	summary: "Delete a pet",
	description:
		"Deletes the pet and its inventory item; a pet with open orders cannot be deleted.",
	request: { params },
	responses: {
		204: { description: "Deleted." },
		...errorResponses(
			"validation_error",
			"not_found",
			"pet_has_open_orders",
			"internal_error",
		),
	},
});
