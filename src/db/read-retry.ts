import { isD1Retryable } from "./d1-errors";

/** How long a read keeps retrying D1 before the client is told (README: "When the platform fails"). */
export const readRetryBudgetMs = 2000;
const firstDelayMs = 50;
const longestDelayMs = 500;

/**
 * Runs `read` again while it fails retryably, with exponential backoff and full jitter, until the budget would be
 * overspent (then the last error stands); `onRecovered` hears of a read that only a retry saved.
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
			const delay = Math.random() * Math.min(longestDelayMs, firstDelayMs * 2 ** retries);
			if (!isD1Retryable(error) || Date.now() + delay > deadline) throw error;
			await new Promise((resolve) => setTimeout(resolve, delay));
		}
	}
};
