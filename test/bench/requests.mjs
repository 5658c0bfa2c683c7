// A fixed number of requests, for measurements taken per request rather than per second.
import { Agent, request } from "node:http";

/**
 * Sends `count` copies of a request (`{ path, method, headers, body }`, the body as JSON) to `base` over
 * `connections` keep-alive connections, each sending its next request once the last is answered. Resolves
 * with the number of answers that were not 2xx.
 */
export const sendRequests = async (
	base,
	{ path, method = "GET", headers = {}, body },
	count,
	connections = 32,
) => {
	const agent = new Agent({ keepAlive: true, maxSockets: connections });
	const payload = body === undefined ? undefined : JSON.stringify(body);
	const options = {
		method,
		agent,
		headers: { ...headers, ...(payload && { "content-length": Buffer.byteLength(payload) }) },
	};
	let sent = 0;
	let failures = 0;
	const one = () =>
		new Promise((resolve) => {
			request(`${base}${path}`, options, (response) => {
				if (response.statusCode >= 300) failures++;
				response.resume().on("end", resolve);
			})
				.on("error", () => {
					failures++;
					resolve();
				})
				.end(payload);
		});
	await Promise.all(
		Array.from({ length: connections }, async () => {
			while (sent < count) {
				sent++;
				await one();
			}
		}),
	);
	agent.destroy();
	return failures;
};
