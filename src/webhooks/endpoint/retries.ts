import { durations } from "../../models/limits";

/** Each wait is longer by up to this share, at random, so that retries of a burst do not arrive together. */
const jitter = 0.2;

/** Statuses whose `Retry-After` is honoured: the receiver says when it can take more. */
const throttled = new Set([429, 503]);

/** An answer's `Retry-After` (RFC 9110 §10.2.3: seconds or an HTTP-date) as a wait in ms. */
export const retryAfter = (answer: Response, now: number) => {
	const value = answer.headers.get("retry-after")?.trim();
	if (!throttled.has(answer.status) || !value) return undefined;
	const wait = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
	return Number.isNaN(wait) ? undefined : Math.min(Math.max(wait, 0), durations.maxRetryAfter);
};

/** When to retry after failed attempt `attempt` (from 1), or the receiver's longer `Retry-After`; none after the last. */
export const nextAttemptAt = (
	attempt: number,
	now: number,
	retryAfterMs = 0,
	random = Math.random(),
) => {
	const wait = durations.retryDelays[attempt - 1];
	if (wait === undefined) return undefined;
	return now + Math.round(Math.max(wait * (1 + jitter * random), retryAfterMs));
};
