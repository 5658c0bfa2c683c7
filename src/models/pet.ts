import { z } from "@hono/zod-openapi";
import { Id } from "./id";
import { limits } from "./limits";
import { PetStatus } from "./pet-status";
import { name, nameRules } from "./text";

const fields = {
	name: name(limits.petName).openapi({ description: nameRules, example: "Rex" }),
	categoryId: Id.openapi({ description: "The category the pet belongs to.", example: 1 }),
	status: PetStatus,
};

const initialStatus: PetStatus = "available";

export const NewPet = z
	.strictObject({
		...fields,
		// Told in words: a default restated on a referenced schema is an `allOf` member of its own, which client
		// generators type as `PetStatus & unknown`.
		status: fields.status.default(initialStatus),
	})
	.openapi("NewPet", {
		description: `A pet as a client sends it, to create or replace one: its \`status\` is \`${initialStatus}\` unless given.`,
		example: { name: "Rex", categoryId: 1, status: "available" },
	});
export type NewPet = z.infer<typeof NewPet>;

export const PetPatch = z
	.strictObject(fields)
	.partial()
	.refine((patch) => Object.keys(patch).length > 0, "must change at least one field")
	.openapi("PetPatch", { minProperties: 1, example: { status: "sold" } });
export type PetPatch = z.infer<typeof PetPatch>;

export const Pet = z
	.object({ id: Id, ...fields })
	.openapi("Pet", { example: { id: 1, name: "Rex", categoryId: 1, status: "available" } });
export type Pet = z.infer<typeof Pet>;

export const Pets = z.array(Pet).openapi("Pets");
