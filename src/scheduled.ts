import { drizzle } from "drizzle-orm/d1";
import { pruneIdempotencyKeys } from "./http/idempotency";

/** The Cron Trigger's work (`[triggers]` in wrangler.toml): deletes the idempotency records that expired. */
export const scheduled: ExportedHandlerScheduledHandler<Env> = async (
	controller,
	env,
) => {
	await pruneIdempotencyKeys(drizzle(env.DB), controller.scheduledTime);
};
