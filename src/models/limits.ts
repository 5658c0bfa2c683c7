/** Bounds shared by the zod schemas (and so the document), the table CHECK constraints and the error messages. */
export const limits = {
	/** 2^53-1: the largest id a JSON/JS client can hold exactly. */
	maxId: Number.MAX_SAFE_INTEGER,
	petName: 100,
	categoryName: 50,
	categoryDescription: 500,
	orderQuantity: 1000,
	stock: 1_000_000,
	/** Request bodies are JSON documents of a few fields: 16 KiB is generous. */
	requestBodyBytes: 16 * 1024,
	/** The longest webhook URL, as sent and as stored. */
	webhookUrl: 2048,
	/** Pets whose name holds a name filter that one list request examines (every list reads a bounded number of rows). */
	nameMatchesPerRequest: 250,
	/** Webhooks one client may have at once. */
	webhooks: 20,
} as const;

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const day = 24 * hour;

/** How long the API keeps what it keeps, in milliseconds. */
export const durations = {
	/** A keyed response is replayed for this long. */
	idempotencyWindow: 24 * hour,
	/** The event feed keeps an event for this long, and a webhook's attempt log an attempt. */
	eventRetention: 30 * day,
	/** A receiver has this long to answer a delivery. */
	deliveryTimeout: 15 * second,
	/**
	 * The wait after each failed attempt (with jitter): an endpoint down for half a minute gets its events within a
	 * minute of coming back, and one down for a day still gets them (the last try 25 hours after the first).
	 */
	retryDelays: [
		5 * second,
		30 * second,
		2 * minute,
		15 * minute,
		hour,
		4 * hour,
		10 * hour,
		10 * hour,
	],
	/** An endpoint failing for this long without a single success is disabled. */
	failingEndpoint: 24 * hour,
	/** A rotated-out webhook secret keeps signing, beside the new one, for this long. */
	secretOverlap: 24 * hour,
	/** The longest `Retry-After` a delivery honours. */
	maxRetryAfter: 24 * hour,
	/** An endpoint remembers a settled delivery this long, so the same event handed over twice is sent once. */
	settledDelivery: 24 * hour,
} as const;

/** A duration in words, in the largest unit that divides it (days from two on): `15 seconds`, `24 hours`. */
export const inWords = (ms: number) => {
	const [unit, size] = Object.entries({ day, hour, minute, second }).find(
		([unit, size]) => ms % size === 0 && (unit !== "day" || ms > day),
	) ?? ["second", second];
	const count = ms / size;
	return `${count} ${unit}${count === 1 ? "" : "s"}`;
};
