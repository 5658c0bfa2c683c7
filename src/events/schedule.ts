// When a failed delivery is tried again, and when an endpoint is given up on (API.md §9).

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;

/**
 * The wait after each failed attempt: the first retry 5 s after the first try, the last one 25 hours after it,
 * so that an endpoint down for half a minute has its events within a minute of coming back, and one down for a
 * day still gets them.
 */
export const retryDelays = [
	5 * second,
	30 * second,
	2 * minute,
	15 * minute,
	hour,
	4 * hour,
	10 * hour,
	10 * hour,
] as const;

/** Attempts per delivery: the first try and its retries. */
export const maxAttempts = retryDelays.length + 1;

/** How long an endpoint may fail without a single success before it is disabled. */
export const disableAfter = day;

/** Each wait is longer by up to this share, at random, so that retries of a burst do not arrive together. */
const jitter = 0.2;

/** Statuses whose `Retry-After` is honoured: the receiver says when it can take more. */
const throttled = new Set([429, 503]);

/** An answer's `Retry-After` (RFC 9110 §10.2.3: seconds or an HTTP-date) as a wait in ms, capped at a day. */
export const retryAfter = (answer: Response, now: number) => {
	const value = answer.headers.get("retry-after")?.trim();
	if (!throttled.has(answer.status) || !value) return undefined;
	const wait = /^\d+$/.test(value)
		? Number(value) * second
		: Date.parse(value) - now;
	return Number.isNaN(wait) ? undefined : Math.min(Math.max(wait, 0), day);
};

/**
 * When to try again after failed attempt number `attempt` (1 for the first try): the schedule's wait with
 * jitter, or the receiver's `Retry-After` when that is longer; undefined after the last attempt.
 */
export const nextAttemptAt = (
	attempt: number,
	now: number,
	retryAfterMs = 0,
	random = Math.random(),
) => {
	const wait = retryDelays[attempt - 1];
	if (wait === undefined) return undefined;
	return now + Math.round(Math.max(wait * (1 + jitter * random), retryAfterMs));
};
