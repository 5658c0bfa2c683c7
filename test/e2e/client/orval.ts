// A strict program over the fetch client orval generates from the served document
// (test/e2e/generated-client.e2e.mjs): it reads every field of a placed order and of an `order.placed` event,
// without `!` or `?.`. It is type-checked, never run.
import { listEvents, placeOrder } from "./orval/api";
import { orderLine, placedLine } from "./reads";

/** A placed order, as the generated client types it. */
export const placedOrder = async () => {
	const answer = await placeOrder({ petId: 1, quantity: 2 });
	if (answer.status !== 201) throw new Error(answer.data.message);
	return answer.data;
};

export const reads = async () => {
	const answer = await listEvents({ type: ["order.placed"] });
	if (answer.status !== 200) throw new Error(answer.data.message);
	return [
		orderLine(await placedOrder()),
		...answer.data.flatMap((event) => (event.type === "order.placed" ? [placedLine(event)] : [])),
	];
};
