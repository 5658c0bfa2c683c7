/** Every event the API records, one per kind of change (API.md §9). */
export const eventTypes = [
	"pet.created",
	"pet.updated",
	"pet.deleted",
	"category.created",
	"category.updated",
	"category.deleted",
	"order.placed",
	"order.updated",
	"order.completed",
	"order.cancelled",
	"inventory.updated",
] as const;

export type EventType = (typeof eventTypes)[number];
