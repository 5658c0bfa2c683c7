import { z } from "@hono/zod-openapi";
import { repeatable } from "./repeatable";

export const petStatuses = ["available", "pending", "sold"] as const;

/** What each status means for ordering: shown by reference renderers (Scalar, GitBook). */
const meanings: Record<(typeof petStatuses)[number], string> = {
	available: "For sale: orders can be placed while stock lasts.",
	pending: "Reserved while a sale completes: new orders are refused.",
	sold: "Sold: new orders are refused.",
};

export const PetStatus = z
	.enum(petStatuses)
	.openapi("PetStatus", {
		description: "Where the pet is in its sale.",
		"x-enumDescriptions": meanings,
	});
export type PetStatus = z.infer<typeof PetStatus>;

/** The `status` query filter: one status, or several by repeating the parameter. */
export const statusQuery = repeatable(PetStatus, "PetStatus", {
	name: "status",
	description: "Keep items with any of these statuses; repeat the parameter for several.",
	example: "available",
});
