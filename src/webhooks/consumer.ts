import { log, loggable } from "../http/log";
import { failedPart } from "../http/platform";
import { sweep } from "./fan-out";
import type { WebhookMessage } from "./nudge";

/**
 * The webhook queue's consumer: one sweep per batch, however many nudges the batch holds. A sweep that fails is
 * logged once, with the part that failed, and its batch retried; its events wait in the outbox meanwhile.
 */
export const consume = async (batch: MessageBatch<WebhookMessage>, env: Env, now: number) => {
	try {
		await sweep(env, now);
		batch.ackAll();
	} catch (error) {
		log("error", { part: failedPart(error), error: loggable(error) });
		batch.retryAll();
	}
};
