import { env } from "cloudflare:workers";
import { it, vi } from "vitest";
import { createCategory } from "../support/api";
import { spyOnD1 } from "../support/d1";
import { createWebhook, deliverAt, later, sweepAt } from "../support/webhooks";

// D1 round trips per write, its webhook deliveries included: writes through the app, then the queue's sweep
// over a batch holding their nudges, then each endpoint's deliveries, with three endpoints that receive every
// write. The platform batches nudges by time (`max_batch_timeout`): one write per batch is a trickle, a
// hundred a burst.
const endpoints = 3;
const writes = 100;

it("counts D1 round trips per write, its background work included", async () => {
	vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
	const webhooks = [];
	for (let i = 0; i < endpoints; i++) {
		webhooks.push(await createWebhook(["category.created"], `https://receiver.example.com/${i}`));
	}
	const results = [];
	for (const perBatch of [1, 10, 100]) {
		const d1 = spyOnD1(env.DB);
		let foreground = 0;
		for (let written = 0; written < writes; written += perBatch) {
			const before = d1.calls();
			for (let i = 0; i < perBatch; i++) await createCategory();
			foreground += d1.calls() - before;
			await sweepAt(later, perBatch);
			for (const { id } of webhooks) await deliverAt(id, later);
		}
		d1.restore();
		results.push({
			writesPerBatch: perBatch,
			perWrite: d1.calls() / writes,
			foregroundPerWrite: foreground / writes,
		});
	}
	console.log(`WEBHOOKS ${JSON.stringify(results)}`);
});
