import { z } from "@hono/zod-openapi";

export const petStatuses = ["available", "pending", "sold"] as const;

export const PetStatus = z
	.enum(petStatuses)
	.openapi("PetStatus", { description: "Where the pet is in its sale." });
export type PetStatus = z.infer<typeof PetStatus>;
