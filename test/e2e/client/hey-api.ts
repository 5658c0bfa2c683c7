// A strict program over the client hey-api generates from the served document (test/e2e/generated-client.e2e.mjs):
// it reads every field of a placed order and of an `order.placed` event, without `!` or `?.`. It is
// type-checked, never run.
import { listEvents, placeOrder } from "./hey-api/sdk.gen";
import { orderLine, placedLine } from "./reads";

/** A placed order, as the generated client types it. */
export const placedOrder = async () =>
	(await placeOrder({ body: { petId: 1, quantity: 2 }, throwOnError: true })).data;

export const reads = async () => [
	orderLine(await placedOrder()),
	...(await listEvents({ query: { type: ["order.placed"] }, throwOnError: true })).data.flatMap(
		(event) => (event.type === "order.placed" ? [placedLine(event)] : []),
	),
];
