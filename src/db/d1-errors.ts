/** Every message of an error and of its causes: drizzle wraps D1's error in a `DrizzleQueryError`'s `cause`. */
const messages = (error: unknown): string[] =>
	error instanceof Error
		? [error.message, ...messages(error.cause)]
		: error === undefined
			? []
			: [String(error)];

/**
 * D1's messages for a failure of the platform rather than of the statement
 * (https://developers.cloudflare.com/d1/observability/debug-d1/#error-list), and, under local development,
 * SQLite's busy, locked or unreadable database file.
 */
const unavailable =
	/internal error; reference|Network connection lost|caused object to be reset|reset because its code was updated|D1 DB is overloaded|transient issue|exceeded its (memory|CPU)|Memory limit would be exceeded|D1_ERROR: .*timeout|SQLITE_BUSY|database is locked|SQLITE_IOERR|disk I\/O error|SQLITE_CANTOPEN|unable to open database/i;

/**
 * The ones Cloudflare documents as safe to retry (https://developers.cloudflare.com/d1/best-practices/retry-queries/),
 * D1's internal error (a local session meets it while the database file is locked), and a locked database,
 * which ran nothing.
 */
const retryable =
	/internal error; reference|Network connection lost|caused object to be reset|reset because its code was updated|SQLITE_BUSY|database is locked/i;

/** Whether D1 itself failed (the answer is a 503), not the statement we sent (a defect, a 500). */
export const isD1Unavailable = (error: unknown) =>
	messages(error).some((message) => unavailable.test(message));

/** Whether a read that failed so may simply be sent again. */
export const isD1Retryable = (error: unknown) =>
	messages(error).some((message) => retryable.test(message));
