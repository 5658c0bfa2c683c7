import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../env";
import { log } from "../../http/log";
import { isWrite } from "../../http/methods";

/** What travels on the webhook queue: a nudge to sweep the outbox, which carries nothing itself. */
export type WebhookMessage = { kind: "sweep" };

/** Asks the queue's consumer to sweep the outbox (after a write, and every minute). */
export const nudge = async (queue: Queue<WebhookMessage>) => queue.send({ kind: "sweep" });

/** {@link nudge}, whose failure is only logged, with `fields`: the outbox waits for the next sweep. */
export const nudgeOrWarn = (queue: Queue<WebhookMessage>, fields: Parameters<typeof log>[1]) =>
	nudge(queue).catch((error) =>
		log("warn", { ...fields, part: "queue", error: `webhook queue not nudged: ${error}` }),
	);

/** After a successful write, nudges the queue once the response is sent (else the every-minute Cron sweeps). */
export const nudgeOutbox: MiddlewareHandler<AppEnv> = async (c, next) => {
	await next();
	if (!isWrite(c.req.method) || !c.res.ok) return;
	// The write is committed whatever happens here.
	c.executionCtx.waitUntil(nudgeOrWarn(c.env.WEBHOOK_QUEUE, { requestId: c.var.requestId }));
};
