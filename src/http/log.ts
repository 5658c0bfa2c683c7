import { DrizzleQueryError } from "drizzle-orm/errors";

/** What a log line says, beside its level: the part that failed, what it concerns (a request, a webhook), what happened. */
type LogFields = {
	part?: string;
	requestId?: string;
	webhookId?: number;
	/** An API key, by its id: never its secret. */
	keyId?: number;
	message?: string;
	error?: string;
	recovered?: number;
};

/** Writes one structured line (JSON, which Workers Logs indexes by field) through the console method of its level. */
export const log = (level: "warn" | "error", fields: LogFields) =>
	console[level](JSON.stringify({ level, ...fields }));

/** An error as logged: a failed statement by its query, stack and cause (its bound parameters can hold secrets). */
export const loggable = (error: unknown): string => {
	if (error instanceof DrizzleQueryError) {
		return [
			`DrizzleQueryError: Failed query: ${error.query}`,
			...(error.stack?.split("\n").filter((line) => /^\s+at /.test(line)) ?? []),
			`Caused by: ${loggable(error.cause)}`,
		].join("\n");
	}
	return error instanceof Error ? (error.stack ?? String(error)) : String(error);
};
