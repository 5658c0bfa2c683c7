import { z } from "@hono/zod-openapi";
import { repeatable } from "./repeatable";

export const petStatuses = ["available", "pending", "sold"] as const;

export const PetStatus = z.enum(petStatuses).openapi("PetStatus", {
	description: "Where the pet is in its sale.",
	// What each status means for ordering: shown by reference renderers (Scalar, GitBook).
	"x-enumDescriptions": {
		available: "For sale: orders can be placed while stock lasts.",
		pending: "Reserved while a sale completes: new orders are refused.",
		sold: "Sold: new orders are refused.",
	} satisfies Record<(typeof petStatuses)[number], string>,
});
export type PetStatus = z.infer<typeof PetStatus>;

/** The `status` query filter: one status, or several by repeating the parameter. */
export const statusQuery = repeatable(PetStatus, "PetStatus", {
	name: "status",
	description: "Keep items with any of these statuses; repeat the parameter for several.",
	example: "available",
});
