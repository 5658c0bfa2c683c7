// `npm run bench`'s webhook figures: D1 round trips per write with its background work (in the runtime,
// background.bench.ts), and deliveries per second from a backlog of 500 events to 3 endpoints under
// `wrangler dev`, received by a server on 127.0.0.1.
import { createServer } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { startWranglerDev, wrangler } from "../support/wrangler-dev.mjs";
import { inRuntime } from "./in-runtime.mjs";

const port = 8840;
const receiverPort = 8841;
const endpoints = 3;
const backlog = 500;

/** Per writes-per-batch: D1 round trips per write, all told and in the foreground alone. */
const roundTrips = () => inRuntime("background.bench.ts", "WEBHOOKS");

/** The backlog: events that wait in the outbox, newer than the webhooks, so that each one receives them all. */
const backlogSql = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${backlog})
	INSERT INTO events (type, subject, created_at, data)
	SELECT 'category.created', '/categories/' || i, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), json_object('id', i, 'name', 'Backlog ' || i) FROM n;`;

/**
 * Deliveries per second from the backlog: the webhooks are created through the API, the backlog written
 * straight into the local D1 (no nudge), then one write nudges the queue; timed to the last delivery.
 */
const deliveriesPerSecond = async () => {
	let received = 0;
	let last = 0;
	const receiver = createServer((request, response) => {
		request.resume();
		request.on("end", () => {
			received++;
			last = Date.now();
			response.writeHead(204).end();
		});
	});
	await new Promise((resolve) => receiver.listen(receiverPort, "127.0.0.1", resolve));
	const server = await startWranglerDev({ port, probe: "/health", envFile: ".dev.vars.example" });
	const post = (path, body) =>
		fetch(`${server.base}${path}`, {
			method: "POST",
			headers: { authorization: "Bearer petstore-dev-token", "content-type": "application/json" },
			body: JSON.stringify(body),
		});
	try {
		for (let i = 0; i < endpoints; i++) {
			await post("/webhooks", {
				url: `http://127.0.0.1:${receiverPort}/hook/${i}`,
				events: ["category.created"],
			});
		}
		// The creations' nudges find nothing waiting.
		await sleep(3_000);
		wrangler([
			"d1",
			"execute",
			"DB",
			"--local",
			"--persist-to",
			server.state,
			"--command",
			backlogSql,
		]);
		const expected = endpoints * (backlog + 1);
		const start = Date.now();
		await post("/categories", { name: "Nudge" });
		const deadline = start + 300_000;
		while (received < expected && Date.now() < deadline) await sleep(100);
		return { received, expected, perSecond: received / ((last - start) / 1000) };
	} finally {
		server.stop();
		receiver.close();
	}
};

/** Markdown table rows of the webhook figures. */
export const webhookRows = async () => {
	const trips = roundTrips();
	const delivered = await deliveriesPerSecond();
	return [
		...trips.map(({ writesPerBatch, perWrite, foregroundPerWrite }) => [
			`webhooks: D1 round trips per write (${writesPerBatch} per queue batch, 3 endpoints)`,
			`${perWrite.toFixed(2)} (${foregroundPerWrite.toFixed(2)} in the request)`,
		]),
		[
			`webhooks: deliveries/s from a backlog (${backlog} events, ${endpoints} endpoints)`,
			`${delivered.perSecond.toFixed(0)} (${delivered.received} of ${delivered.expected})`,
		],
	];
};
