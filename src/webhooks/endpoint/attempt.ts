import { durations, inWords } from "../../models/limits";
import { userAgent } from "../../models/webhook-delivery";
import type { Delivery } from "../outbox/events";
import { sign } from "../secrets/signing";
import { retryAfter } from "./retries";

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
		const ok = answer.status >= 200 && answer.status < 300;
		return {
			ok,
			status: answer.status,
			durationMs: durationMs(),
			error: ok ? null : failureOf(answer),
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
