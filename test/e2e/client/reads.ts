// What every generated client's program reads (test/e2e/generated-client.e2e.mjs): every field of an order and
// of an `order.placed` event, each typed as the API always answers it. A generated type that leaves one
// optional does not compile here.

type Order = { id: number; petId: number; quantity: number; shipDate: string; complete: boolean };

/** Every field of an order. */
export const orderLine = (order: Order) =>
	`${order.id} ${order.petId} ${order.quantity} ${order.shipDate} ${order.complete}`;

/** Every field of an `order.placed` event, its order included. */
export const placedLine = (event: {
	id: number;
	type: "order.placed";
	createdAt: string;
	data: Order;
}) => `${event.id} ${event.type} ${event.createdAt} ${orderLine(event.data)}`;
