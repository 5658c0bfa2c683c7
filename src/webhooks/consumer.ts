import { sweep } from "./fan-out";
import type { WebhookMessage } from "./nudge";

/**
 * The webhook queue's consumer: one sweep per batch, however many nudges the batch holds. If the sweep
 * fails, the batch is retried; its events wait in the outbox meanwhile.
 */
export const consume = async (
	batch: MessageBatch<WebhookMessage>,
	env: Env,
	now: number,
) => {
	await sweep(env, now);
	batch.ackAll();
};
