import { z } from "@hono/zod-openapi";

export const petStatuses = ["available", "pending", "sold"] as const;

export const PetStatus = z
	.enum(petStatuses)
	.openapi("PetStatus", { description: "Where the pet is in its sale." });
export type PetStatus = z.infer<typeof PetStatus>;

/** The `status` query filter: one status, or several by repeating the parameter (repeats are ignored). */
export const statusQuery = z
	.union([PetStatus, z.array(PetStatus)])
	.transform((value) => [...new Set([value].flat())])
	.optional()
	.openapi({
		type: "array",
		items: { $ref: "#/components/schemas/PetStatus" },
		description:
			"Keep items with any of these statuses; repeat the parameter for several.",
		param: { name: "status", in: "query", style: "form", explode: true },
	});
