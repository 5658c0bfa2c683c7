// The database really failing under `wrangler dev`: this process holds an exclusive lock on the local D1's
// SQLite file (under --persist-to) for a few seconds, while readers and keyed order writers run. Every answer is
// a success or a 503 with Retry-After, never a 500; nothing is lost, nothing placed twice, and stock adds up.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWranglerDev } from "../support/wrangler-dev.mjs";

const port = 8920;
const headers = { authorization: "Bearer petstore-dev-token", "content-type": "application/json" };
const stock = 10_000;
const writers = 3;
const ordersPerWriter = 12;
const readers = 3;
const outageMs = 4_000;

let dev;
const logs = [];

beforeAll(async () => {
	dev = await startWranglerDev({
		port,
		envFile: ".dev.vars.example",
		onLog: (chunk) => logs.push(chunk),
	});
});

afterAll(async () => {
	await dev?.stop();
});

/** The local D1 database's SQLite file, where wrangler dev persists it. */
const databaseFile = () => {
	const dir = join(dev.state, "v3/d1/miniflare-D1DatabaseObject");
	const [file] = readdirSync(dir).filter(
		(name) => name.endsWith(".sqlite") && name !== "metadata.sqlite",
	);
	return join(dir, file);
};

/** Holds an exclusive lock on the database file for `ms`: every statement of the Worker fails meanwhile. */
const outage = async (ms) => {
	const db = new DatabaseSync(databaseFile());
	for (;;) {
		try {
			db.exec("BEGIN EXCLUSIVE");
			break;
		} catch {
			await sleep(10);
		}
	}
	await sleep(ms);
	db.exec("ROLLBACK");
	db.close();
};

const call = (method, path, body, extra = {}) =>
	fetch(`${dev.base}${path}`, {
		method,
		headers: { ...headers, ...extra },
		body: body && JSON.stringify(body),
	});

describe("when the database fails for a few seconds", () => {
	it("answers every request with a success or a 503 with Retry-After, and loses or doubles no order", async () => {
		const category = await (await call("POST", "/categories", { name: "Outage" })).json();
		const pet = await (
			await call("POST", "/pets", { name: "Rex", categoryId: category.id })
		).json();
		expect((await call("PUT", `/store/inventory/${pet.id}`, { quantity: stock })).status).toBe(200);

		const counts = { sent: 0, unavailable: 0, internal: 0, other: [] };
		const count = (response) => {
			counts.sent++;
			if (response.status === 500) counts.internal++;
			if (response.status === 503) {
				counts.unavailable++;
				expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
			} else if (response.status >= 300) counts.other.push(response.status);
		};
		const acknowledged = [];
		let retriedWrites = 0;
		let writing = true;

		const writer = async () => {
			for (let i = 0; i < ordersPerWriter; i++) {
				const key = crypto.randomUUID();
				for (let attempt = 0; ; attempt++) {
					const response = await call(
						"POST",
						"/store/orders",
						{ petId: pet.id, quantity: 1 + (i % 3) },
						{ "idempotency-key": key },
					);
					count(response);
					if (response.status === 201) {
						acknowledged.push(await response.json());
						if (attempt > 0) retriedWrites++;
						break;
					}
					await response.body?.cancel();
					// Bounded: the outage ends, and every keyed retry is safe.
					expect(attempt).toBeLessThan(200);
					await sleep(100);
				}
				await sleep(150);
			}
		};
		const reader = async () => {
			while (writing) {
				for (const path of [
					`/pets/${pet.id}`,
					`/store/inventory/${pet.id}`,
					`/store/orders?petId=${pet.id}`,
				]) {
					const response = await call("GET", path);
					count(response);
					await response.body?.cancel();
				}
				await sleep(50);
			}
		};

		const readersDone = Promise.all(Array.from({ length: readers }, reader));
		const writersDone = Promise.all(Array.from({ length: writers }, writer));
		await sleep(1_000);
		await outage(outageMs);
		await writersDone;
		writing = false;
		await readersDone;

		const orders = [];
		for (let next = `/store/orders?petId=${pet.id}&limit=100`; next; ) {
			const response = await call("GET", next);
			orders.push(...(await response.json()));
			next = response.headers
				.get("link")
				?.match(/<([^>]+)>;\s*rel="next"/)?.[1]
				?.replace(dev.base, "");
		}
		const left = (await (await call("GET", `/store/inventory/${pet.id}`)).json()).quantity;
		const recoveredReads = logs
			.join("")
			.split("\n")
			.filter((line) => line.includes('"recovered"')).length;
		console.log(
			JSON.stringify({
				requests: counts.sent,
				unavailable503: counts.unavailable,
				internal500: counts.internal,
				readsServedByARetry: recoveredReads,
				keyedWritesPlacedOnTheClientsRetry: retriedWrites,
				ordersPlaced: orders.length,
			}),
		);

		expect(counts.internal).toBe(0);
		expect(counts.other).toEqual([]);
		expect(counts.unavailable).toBeGreaterThan(0);
		expect(retriedWrites).toBeGreaterThan(0);
		expect(acknowledged).toHaveLength(writers * ordersPerWriter);
		expect(orders.map((order) => order.id).sort()).toEqual(
			acknowledged.map((order) => order.id).sort(),
		);
		const taken = orders.reduce((sum, order) => sum + order.quantity, 0);
		expect(left + taken).toBe(stock);
	}, 120_000);
});
