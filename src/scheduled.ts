import { lt } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { events } from "./db/schema";
import { pruneIdempotencyKeys } from "./db/write";
import { durations } from "./models/limits";
import { catchUpEndpoints } from "./webhooks/endpoint/catch-up";
import { nudge } from "./webhooks/outbox/nudge";

/** The every-minute Cron (wrangler.toml): prunes, sweeps the outbox, brings webhooks' Durable Objects up to date. */
export const scheduled: ExportedHandlerScheduledHandler<Env> = async (controller, env) => {
	const db = drizzle(env.DB);
	const now = controller.scheduledTime;
	await db.batch([
		pruneIdempotencyKeys(db, now),
		db
			.delete(events)
			.where(lt(events.createdAt, new Date(now - durations.eventRetention).toISOString())),
	]);
	// After the pruning, so that a queue that fails to answer never keeps old records.
	await nudge(env.WEBHOOK_QUEUE);
	await catchUpEndpoints(env, now);
};
