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
	/** Webhooks that may exist at once. */
	webhooks: 20,
} as const;

const hour = 60 * 60 * 1000;
const day = 24 * hour;

/** How long the API keeps what it keeps, in milliseconds. */
export const durations = {
	/** A keyed response is replayed for this long (API.md §6). */
	idempotencyWindow: 24 * hour,
	/** The event feed keeps an event for this long. */
	eventRetention: 30 * day,
} as const;

/** A duration in words, for descriptions and messages: `24 hours`, `30 days`. */
export const inWords = (ms: number) =>
	ms % day === 0 ? `${ms / day} days` : `${ms / hour} hours`;
