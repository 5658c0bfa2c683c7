import { durations, inWords } from "../../models/limits";
import { userAgent } from "../../models/webhook-delivery";
import type { Delivery } from "../outbox/events";

/** Each wait is longer by up to this share, at random, so that retries of a burst do not arrive together. */
const jitter = 0.2;
/** Statuses whose `Retry-After` is honoured: the receiver says when it can take more. */
const throttled = new Set([429, 503]);
const hmac = { name: "HMAC", hash: "SHA-256" };

/** What one attempt came to; `retryAfterMs` when a 429 or 503 said when to come back. */
export type AttemptResult = {
	ok: boolean;
	status: number;
	durationMs: number;
	error: string | null;
	retryAfterMs?: number;
};

/** An attempt that got no answer, `error` saying why (after 0 ms when nothing was sent): a failed delivery. */
export const unanswered = (error: string, durationMs = 0): AttemptResult => ({
	ok: false,
	status: 0,
	durationMs,
	error,
});

/** An answer's `Retry-After` (RFC 9110 §10.2.3: seconds or an HTTP-date) as a wait in ms. */
const retryAfter = (answer: Response, now: number) => {
	const value = answer.headers.get("retry-after")?.trim();
	if (!throttled.has(answer.status) || !value) return undefined;
	const wait = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
	return Number.isNaN(wait) ? undefined : Math.min(Math.max(wait, 0), durations.maxRetryAfter);
};

/** When to retry after failed attempt `attempt` (from 1), or the receiver's longer `Retry-After`; none after the last. */
export const nextAttemptAt = (attempt: number, now: number, retryAfterMs = 0) => {
	const wait = durations.retryDelays[attempt - 1];
	if (wait === undefined) return null;
	return now + Math.round(Math.max(wait * (1 + jitter * Math.random()), retryAfterMs));
};

/** The `webhook-signature` header, per Standard Webhooks: one `v1,` signature per secret, newest first. */
const sign = async (secrets: string[], id: string, timestamp: number, body: string) => {
	const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
	const signatures = secrets.map(async (secret) => {
		const bytes = Uint8Array.fromBase64(secret.slice("whsec_".length));
		const key = await crypto.subtle.importKey("raw", bytes, hmac, false, ["sign"]);
		return `v1,${new Uint8Array(await crypto.subtle.sign("HMAC", key, signed)).toBase64()}`;
	});
	return (await Promise.all(signatures)).join(" ");
};

const failureOf = (answer: Response) =>
	answer.status >= 300 && answer.status < 400
		? `redirected to ${answer.headers.get("location") ?? "nowhere"}; redirects are not followed`
		: `answered ${answer.status}`;

/** POSTs one event to `url`, signed with each of `secrets`; only a 2xx in time succeeds (redirects not followed). */
export const attempt = async (
	url: string,
	secrets: string[],
	{ eventId, body }: Delivery,
	now: number,
): Promise<AttemptResult> => {
	const id = `evt_${eventId}`;
	const timestamp = Math.floor(now / 1000);
	const started = performance.now();
	const durationMs = () => Math.round(performance.now() - started);
	try {
		const answer = await fetch(url, {
			method: "POST",
			headers: {
				"content-type": "application/json",
				"user-agent": userAgent,
				"webhook-id": id,
				"webhook-timestamp": String(timestamp),
				"webhook-signature": await sign(secrets, id, timestamp, body),
			},
			body,
			redirect: "manual",
			signal: AbortSignal.timeout(durations.deliveryTimeout),
		});
		await answer.body?.cancel();
		return {
			ok: answer.ok,
			status: answer.status,
			durationMs: durationMs(),
			error: answer.ok ? null : failureOf(answer),
			retryAfterMs: retryAfter(answer, now),
		};
	} catch (error) {
		const timedOut = error instanceof Error && error.name === "TimeoutError";
		return unanswered(
			timedOut
				? `no answer within ${inWords(durations.deliveryTimeout)}`
				: `no answer: ${error instanceof Error ? error.message : String(error)}`,
			durationMs(),
		);
	}
};
