import { asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { events, webhooks } from "../db/schema";
import { openSecret } from "../db/secret-box";

/** What travels on the webhook queue: a nudge to fan out the outbox, or one event for one webhook. */
export type WebhookMessage =
	| { kind: "sweep" }
	| { kind: "delivery"; eventId: number; webhookId: number };

/** Events handed to the queue per sweep; a longer outbox takes another sweep. */
const sweepSize = 50;
/** Failed deliveries in a row after which an endpoint is disabled. */
const disableAfter = 10;
const timeoutMs = 10_000;

/** Asks the consumer to fan out whatever the outbox holds (after a write, and every minute). */
export const nudge = async (queue: Queue<WebhookMessage>) => {
	await queue.send({ kind: "sweep" });
};

/**
 * Turns the outbox's waiting events, oldest first, into one delivery message per subscribed, enabled webhook,
 * then marks them handed over. A crash between the two sends them again: deliveries are at least once, and
 * receivers deduplicate on `webhook-id`.
 */
const sweep = async (env: Env, now: number) => {
	const db = drizzle(env.DB);
	const [waiting, endpoints] = await db.batch([
		db
			.select({ id: events.id, type: events.type, createdAt: events.createdAt })
			.from(events)
			.where(isNull(events.fannedOutAt))
			.orderBy(asc(events.id))
			.limit(sweepSize),
		db
			.select({
				id: webhooks.id,
				events: webhooks.events,
				createdAt: webhooks.createdAt,
			})
			.from(webhooks)
			.where(eq(webhooks.disabled, false)),
	]);
	if (waiting.length === 0) return;
	const deliveries = waiting.flatMap((event) =>
		endpoints
			// A webhook receives what happened from its creation on, as it asked.
			.filter(
				(endpoint) =>
					endpoint.createdAt <= event.createdAt &&
					endpoint.events.includes(event.type as never),
			)
			.map((endpoint) => ({
				body: {
					kind: "delivery" as const,
					eventId: event.id,
					webhookId: endpoint.id,
				},
			})),
	);
	for (let start = 0; start < deliveries.length; start += 100) {
		await env.WEBHOOK_QUEUE.sendBatch(deliveries.slice(start, start + 100));
	}
	await db
		.update(events)
		.set({ fannedOutAt: new Date(now).toISOString() })
		.where(
			inArray(
				events.id,
				waiting.map((event) => event.id),
			),
		);
	if (waiting.length === sweepSize) await nudge(env.WEBHOOK_QUEUE);
};

const encoder = new TextEncoder();

/** Standard Webhooks 1.0: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, keyed by the secret's bytes. */
export const signature = async (
	secret: string,
	id: string,
	timestamp: number,
	body: string,
) => {
	const keyBytes = Uint8Array.from(atob(secret.slice("whsec_".length)), (c) =>
		c.charCodeAt(0),
	);
	const key = await crypto.subtle.importKey(
		"raw",
		keyBytes,
		{ name: "HMAC", hash: "SHA-256" },
		false,
		["sign"],
	);
	const mac = await crypto.subtle.sign(
		"HMAC",
		key,
		encoder.encode(`${id}.${timestamp}.${body}`),
	);
	return `v1,${btoa(String.fromCharCode(...new Uint8Array(mac)))}`;
};

/** Seconds before attempt `attempts + 1`: 10 s, doubling (with `max_retries = 5`, the last after 160 s). */
const backoff = (attempts: number) => Math.min(3600, 10 * 2 ** (attempts - 1));

/** Delivers one event to one webhook; true when the endpoint acknowledged it or will never get it. */
const deliver = async (
	env: Env,
	{ eventId, webhookId }: { eventId: number; webhookId: number },
	now: number,
) => {
	const db = drizzle(env.DB);
	const [[event], [endpoint]] = await db.batch([
		db.select().from(events).where(eq(events.id, eventId)),
		db.select().from(webhooks).where(eq(webhooks.id, webhookId)),
	]);
	if (!event || !endpoint || endpoint.disabled) return true;
	const id = `evt_${event.id}`;
	// `data` is stored as the API's JSON already: spliced in as it is, not parsed and serialised again.
	const body = `{"id":${event.id},"type":${JSON.stringify(event.type)},"createdAt":${JSON.stringify(event.createdAt)},"data":${event.data}}`;
	const timestamp = Math.floor(now / 1000);
	let status = 0;
	try {
		const answer = await fetch(endpoint.url, {
			method: "POST",
			headers: {
				"content-type": "application/json",
				"webhook-id": id,
				"webhook-timestamp": String(timestamp),
				"webhook-signature": await signature(
					await openSecret(endpoint.secret, env),
					id,
					timestamp,
					body,
				),
			},
			body,
			redirect: "manual",
			signal: AbortSignal.timeout(timeoutMs),
		});
		status = answer.status;
		await answer.body?.cancel();
	} catch {
		// No answer in time, or none at all: status 0.
	}
	const ok = status >= 200 && status < 300;
	const failures = ok ? 0 : sql`${webhooks.failures} + 1`;
	await db
		.update(webhooks)
		.set({
			lastStatus: status,
			lastAttemptAt: new Date(now).toISOString(),
			failures,
			disabled: ok
				? webhooks.disabled
				: sql`${webhooks.failures} + 1 >= ${disableAfter}`,
			version: sql`${webhooks.version} + 1`,
		})
		.where(eq(webhooks.id, webhookId));
	return ok;
};

/**
 * The queue consumer, on `clock`: sweeps fan out; deliveries that fail are retried with backoff, then
 * dead-lettered.
 */
export const consume = async (
	batch: MessageBatch<WebhookMessage>,
	env: Env,
	clock: () => number,
) => {
	for (const message of batch.messages) {
		// Read for each message: a signature's timestamp is the moment it is sent.
		const now = clock();
		if (message.body.kind === "sweep") {
			await sweep(env, now);
			message.ack();
		} else if (await deliver(env, message.body, now)) {
			message.ack();
		} else {
			message.retry({ delaySeconds: backoff(message.attempts) });
		}
	}
};
