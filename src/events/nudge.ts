import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { nudge } from "./queue";

/**
 * After a write that succeeded, asks the webhook queue to fan out the outbox, once the response is on its way.
 * If the Worker dies first, the every-minute Cron Trigger sweeps the same events (src/scheduled.ts).
 */
export const nudgeOutbox: MiddlewareHandler<AppEnv> = async (c, next) => {
	await next();
	if (c.res.ok) c.executionCtx.waitUntil(nudge(c.env.WEBHOOK_QUEUE));
};
