import { and, desc, eq, isNull, lt, lte, min, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import migrations from "../../../drizzle/webhook-endpoint/migrations.js";
import { durations } from "../../models/limits";
import type { DeliveryOutcome } from "../../models/webhook-delivery";
import type { EndpointConfig } from "../endpoint-config";
import type { Delivery, Replay } from "../outbox/events";
import type { AttemptResult } from "./attempt";
import { attempts, deliveries, endpoint, replay } from "./schema";

/** A delivery due to be attempted, and how many attempts it has had. */
export type DueDelivery = Delivery & { attempts: number };

/** A webhook Durable Object's statements, once its storage has every migration (applied as it starts). */
export const endpointStore = async (storage: DurableObjectStorage) => {
	const db = drizzle(storage);
	await migrate(db, migrations);
	/** Holds the deliveries, due at `now`, and answers the ids of those it wrote: see `hold` and `requeue`. */
	const insert = (held: Delivery[], now: number, again: boolean) =>
		held.flatMap((delivery) => {
			const row = db.insert(deliveries).values({ ...delivery, nextAt: now });
			const written = again
				? row.onConflictDoUpdate({
						target: deliveries.eventId,
						set: { body: delivery.body, attempts: 0, nextAt: now, settledAt: null },
					})
				: row.onConflictDoNothing();
			return written.returning({ eventId: deliveries.eventId }).get() ? [delivery.eventId] : [];
		});

	return {
		endpoint: () => db.select().from(endpoint).get(),

		/** Keeps `config` unless a newer version is held; `disabled` pauses or resumes (restarting `failingSince`). */
		configure: (config: EndpointConfig, disabled?: boolean) => {
			const { url, secrets, version } = config;
			const pausing = disabled === undefined ? {} : { disabled, disableRecorded: true };
			const resuming = disabled === false ? { failingSince: null } : {};
			db.insert(endpoint)
				.values({ id: 1, ...config, disabled: disabled ?? false })
				.onConflictDoUpdate({
					target: endpoint.id,
					set: { url, secrets, version, ...pausing, ...resuming },
					setWhere: lte(endpoint.version, version),
				})
				.run();
		},

		/**
		 * Holds new deliveries due at `now` (an event already held, or settled within a day, is not); while `disabled`,
		 * records each as held.
		 */
		hold: (held: Delivery[], now: number, disabled: boolean) => {
			const written = insert(held, now, false);
			if (!disabled) return;
			for (const eventId of written) {
				db.insert(attempts)
					.values({
						eventId,
						attempt: 0,
						status: 0,
						durationMs: 0,
						error: "arrived while the webhook was disabled",
						outcome: "held",
						attemptedAt: now,
					})
					.run();
			}
		},

		/** Holds deliveries to send again from their first attempt, due at `now`, whatever became of them before. */
		requeue: (held: Delivery[], now: number) => insert(held, now, true),

		/** Up to `limit` deliveries due by `now`, longest waiting first. */
		due: (now: number, limit: number): DueDelivery[] =>
			db
				.select()
				.from(deliveries)
				.where(lte(deliveries.nextAt, now))
				.orderBy(deliveries.nextAt, deliveries.eventId)
				.limit(limit)
				.all(),

		nextDue: () =>
			db
				.select({ next: min(deliveries.nextAt) })
				.from(deliveries)
				.get()?.next ?? null,

		/** Logs an attempt and applies it to the delivery and the endpoint (no next attempt shown once disabled). */
		record: (
			{ eventId, attempts: attempted }: DueDelivery,
			{ ok, status, durationMs, error }: AttemptResult,
			outcome: DeliveryOutcome,
			nextAttemptAt: number | null,
			now: number,
		) => {
			db.insert(attempts)
				.values({
					eventId,
					attempt: attempted + 1,
					status,
					durationMs,
					error,
					outcome,
					nextAttemptAt: outcome === "disabled" ? null : nextAttemptAt,
					attemptedAt: now,
				})
				.run();
			const settledAt = nextAttemptAt === null ? now : null;
			db.update(deliveries)
				.set({ attempts: sql`${deliveries.attempts} + 1`, nextAt: nextAttemptAt, settledAt })
				.where(eq(deliveries.eventId, eventId))
				.run();
			const failures = ok ? 0 : sql`${endpoint.failures} + 1`;
			const failingSince = ok ? null : sql`coalesce(${endpoint.failingSince}, ${now})`;
			db.update(endpoint)
				.set({ failures, failingSince, lastStatus: status, lastAttemptAt: now })
				.run();
		},

		/** Stops deliveries until `configure` resumes them; the `webhook.disabled` event is yet to be recorded. */
		disable: () => db.update(endpoint).set({ disabled: true, disableRecorded: false }).run(),

		disableRecorded: () => db.update(endpoint).set({ disableRecorded: true }).run(),

		replay: () => db.select().from(replay).get(),

		/** Starts a replay, replacing one in progress. */
		startReplay: ({ after, events, createdAt }: Replay) =>
			db
				.insert(replay)
				.values({ id: 1, after, events, createdAt })
				.onConflictDoUpdate({ target: replay.id, set: { after, events, createdAt } })
				.run(),

		/** Moves the replay past `after`, or ends it when nothing is left. */
		advanceReplay: (after: number | undefined) =>
			after === undefined ? db.delete(replay).run() : db.update(replay).set({ after }).run(),

		/** A page of the attempt log, newest first: those before attempt `before` (0: from the newest). */
		attempts: (before: number, limit: number) =>
			db
				.select()
				.from(attempts)
				.where(before === 0 ? undefined : lt(attempts.id, before))
				.orderBy(desc(attempts.id))
				.limit(limit)
				.all(),

		/** Forgets settled deliveries after a day, and attempts and held deliveries as the event feed forgets events. */
		prune: (now: number) => {
			const settled = now - durations.settledDelivery;
			const retained = now - durations.eventRetention;
			db.delete(deliveries).where(lt(deliveries.settledAt, settled)).run();
			db.delete(attempts).where(lt(attempts.attemptedAt, retained)).run();
			db.delete(deliveries)
				.where(and(isNull(deliveries.settledAt), lt(deliveries.nextAt, retained)))
				.run();
		},
	};
};

export type EndpointStore = Awaited<ReturnType<typeof endpointStore>>;
