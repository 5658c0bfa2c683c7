import { z } from "@hono/zod-openapi";
import { Id } from "./id";
import { limits } from "./limits";
import { PetStatus } from "./pet-status";

const quantity = z
	.int()
	.min(0)
	.max(limits.stock)
	.openapi({ description: "Units in stock.", example: 5 });

export const InventoryItem = z
	.object({ petId: Id, quantity, status: PetStatus })
	.openapi("InventoryItem", { example: { petId: 1, quantity: 5, status: "available" } });
export type InventoryItem = z.infer<typeof InventoryItem>;

export const Inventory = z.array(InventoryItem).openapi("Inventory");

export const InventoryUpdate = z
	.strictObject({ quantity })
	.openapi("InventoryUpdate", { example: { quantity: 10 } });

/** The key the inventory is listed by: its pet's id. */
export const byPetId = (item: InventoryItem) => item.petId;
