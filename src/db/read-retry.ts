import { isD1Retryable } from "./d1-errors";

/** How long a read keeps retrying D1 before the client is told (README: "When the platform fails"). */
export const readRetryBudgetMs = 2000;
const firstDelayMs = 50;
const longestDelayMs = 500;

/**
 * Runs `read` again while it fails with an error D1 documents as retryable, with exponential backoff and full
 * jitter, until the budget would be overspent; then the last error stands. `onRecovered` hears of a read
 * that succeeded only thanks to a retry.
 */
export const retryRead = async <T>(
	read: () => Promise<T>,
	onRecovered: (retries: number) => void,
): Promise<T> => {
	const deadline = Date.now() + readRetryBudgetMs;
	for (let retries = 0; ; retries++) {
		try {
			const result = await read();
			if (retries > 0) onRecovered(retries);
			return result;
		} catch (error) {
			const delay =
				Math.random() * Math.min(longestDelayMs, firstDelayMs * 2 ** retries);
			if (!isD1Retryable(error) || Date.now() + delay > deadline) throw error;
			await new Promise((resolve) => setTimeout(resolve, delay));
		}
	}
};

/** The statement each retrying wrapper stands for, so that a batch is given D1's own statements. */
const original = new WeakMap<object, D1PreparedStatement>();

/** A prepared statement whose every run is retried by {@link retryRead}. */
const retrying = (
	statement: D1PreparedStatement,
	onRecovered: (retries: number) => void,
): D1PreparedStatement => {
	const retry = <T>(run: () => Promise<T>) => retryRead(run, onRecovered);
	const wrapper = {
		bind: (...values: unknown[]) =>
			retrying(statement.bind(...values), onRecovered),
		first: (column?: string) => retry(() => statement.first(column as string)),
		run: () => retry(() => statement.run()),
		all: () => retry(() => statement.all()),
		raw: (options?: { columnNames?: boolean }) =>
			retry(() => statement.raw(options as { columnNames: true })),
	} as unknown as D1PreparedStatement;
	original.set(wrapper, statement);
	return wrapper;
};

/** `prepare` and `batch` over `session`, every read of theirs retried: for requests that only read. */
export const retryingReads = (
	session: () => Pick<D1DatabaseSession, "prepare" | "batch">,
	onRecovered: (retries: number) => void,
) => ({
	prepare: (query: string) => retrying(session().prepare(query), onRecovered),
	batch: (statements: D1PreparedStatement[]) =>
		retryRead(
			() =>
				session().batch(
					statements.map((statement) => original.get(statement) ?? statement),
				),
			onRecovered,
		),
});
