import { log, loggable } from "../../http/log";
import { failedPart } from "../../http/platform";
import { sweep } from "./events";
import type { WebhookMessage } from "./nudge";

/** The webhook queue's consumer: one sweep per batch; one that fails is logged and its batch retried. */
export const consume = async (batch: MessageBatch<WebhookMessage>, env: Env, now: number) => {
	try {
		await sweep(env, now);
		batch.ackAll();
	} catch (error) {
		log("error", { part: failedPart(error), error: loggable(error) });
		batch.retryAll();
	}
};
