/** Every message of an error and of its causes: drizzle wraps D1's error in a `DrizzleQueryError`'s `cause`. */
const messages = (error: unknown): string[] => {
	if (error instanceof Error) return [error.message, ...messages(error.cause)];
	return error === undefined ? [] : [String(error)];
};

/**
 * D1's messages for a failure of the platform rather than of the statement, and locally SQLite's busy, locked or
 * unreadable file; `true` where a read may simply be sent again: those Cloudflare documents as safe to retry, D1's
 * internal error (a local session meets it while the file is locked), and a locked database, which ran nothing.
 */
const platformFailures = Object.entries({
	"internal error; reference": true,
	"Network connection lost": true,
	"caused object to be reset": true,
	"reset because its code was updated": true,
	"SQLITE_BUSY|database is locked": true,
	"D1 DB is overloaded": false,
	"transient issue": false,
	"exceeded its (memory|CPU)|Memory limit would be exceeded": false,
	"D1_ERROR: .*timeout": false,
	"SQLITE_IOERR|disk I/O error": false,
	"SQLITE_CANTOPEN|unable to open database": false,
}).map(([pattern, retryable]) => ({ pattern: new RegExp(pattern, "i"), retryable }));

const failuresOf = (error: unknown) =>
	messages(error).flatMap((message) =>
		platformFailures.filter(({ pattern }) => pattern.test(message)),
	);

/** Whether D1 itself failed (the answer is a 503), not the statement we sent (a defect, a 500). */
export const isD1Unavailable = (error: unknown) => failuresOf(error).length > 0;

/** Whether a read that failed so may simply be sent again. */
export const isD1Retryable = (error: unknown) =>
	failuresOf(error).some(({ retryable }) => retryable);
