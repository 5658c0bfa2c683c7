import {
	createExecutionContext,
	createMessageBatch,
	getQueueResult,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook as Verifier } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { consume, type WebhookMessage } from "../src/events/queue";
import {
	anonymous,
	api,
	expectError,
	type Order,
	placeOrder,
	send,
	stockedPet,
	testApp,
	testNow,
} from "./support/api";

type CreatedWebhook = {
	id: number;
	url: string;
	events: string[];
	secret: string;
	disabled: boolean;
	failures: number;
	lastStatus: number | null;
};

const receiver = "http://127.0.0.1:9999/hook";

const createWebhook = async (events: string[], url = receiver) => {
	const response = await send("POST", "/webhooks", { url, events });
	expect(response.status).toBe(201);
	return response.json<CreatedWebhook>();
};

const webhookState = async (id: number) =>
	(await api(`/webhooks/${id}`)).json<CreatedWebhook>();

let messageId = 0;
/** Runs the queue consumer on one delivery, as the platform would on attempt `attempts`. */
const runDelivery = async (
	body: WebhookMessage,
	attempts = 1,
	now = testNow,
) => {
	const batch = createMessageBatch<WebhookMessage>("petstore-webhooks", [
		{ id: String(++messageId), timestamp: new Date(now), attempts, body },
	]);
	const retry = vi.spyOn(batch.messages[0], "retry");
	await consume(batch, env, () => now);
	const result = await getQueueResult(batch, createExecutionContext());
	return { ...result, retryDelay: retry.mock.calls[0]?.[0]?.delaySeconds };
};

/** The newest event of a resource. */
const eventOf = async (subject: string) => {
	const events = await (
		await anonymous(`/events?subject=${encodeURIComponent(subject)}`)
	).json<{ id: number }[]>();
	return events.at(-1)?.id ?? 0;
};

afterEach(() => {
	vi.restoreAllMocks();
});

describe("webhooks: create, read, delete", () => {
	it("answers the signing secret once, then shows the webhook without it", async () => {
		const created = await createWebhook(["order.placed"]);
		expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
		const shown = await webhookState(created.id);
		expect(shown).not.toHaveProperty("secret");
		expect(shown).toMatchObject({
			url: receiver,
			events: ["order.placed"],
			disabled: false,
			failures: 0,
			lastStatus: null,
		});
		const listed = await (await api("/webhooks?limit=100")).json<
			CreatedWebhook[]
		>();
		expect(listed.every((webhook) => !("secret" in webhook))).toBe(true);
		expect(
			(await api(`/webhooks/${created.id}`, { method: "DELETE" })).status,
		).toBe(204);
		await expectError(await api(`/webhooks/${created.id}`), 404, "not_found");
	});

	it("needs the token to read as well as to write", async () => {
		await expectError(await anonymous("/webhooks"), 401, "unauthorized");
		await expectError(await anonymous("/webhooks/1"), 401, "unauthorized");
	});
});

describe("webhooks: hostile input", () => {
	it.each([
		["plain http to another host", "http://shop.example/hook"],
		["credentials", "https://user:secret@shop.example/hook"],
		["more than 2,048 characters", `https://shop.example/${"a".repeat(2048)}`],
		["no URL at all", "shop.example/hook"],
		["another scheme", "ftp://shop.example/hook"],
	])("refuses %s with a validation_error on body.url", async (_, url) => {
		const error = await expectError(
			await send("POST", "/webhooks", { url, events: ["pet.created"] }),
			400,
			"validation_error",
		);
		expect(error.details?.map((detail) => detail.path)).toContain("body.url");
	});

	it("refuses plain http to this machine outside local development", async () => {
		const deployed = testApp({
			bindings: { WEBHOOKS_ALLOW_LOOPBACK: "false" },
		});
		for (const url of [receiver, "http://localhost:9999/hook"]) {
			const error = await expectError(
				await deployed.send("POST", "/webhooks", {
					url,
					events: ["pet.created"],
				}),
				400,
				"validation_error",
			);
			expect(error.details).toEqual([
				{ path: "body.url", message: "must be https" },
			]);
		}
	});

	it("refuses an unknown event type and an empty list", async () => {
		for (const events of [["pet.adopted"], []]) {
			await expectError(
				await send("POST", "/webhooks", { url: receiver, events }),
				400,
				"validation_error",
			);
		}
	});

	it("keeps at most 20 webhooks: the 21st is a 409 webhook_limit", async () => {
		const existing = await (await api("/webhooks?limit=100")).json<unknown[]>();
		for (let i = existing.length; i < 20; i++)
			await createWebhook(["pet.created"]);
		await expectError(
			await send("POST", "/webhooks", {
				url: receiver,
				events: ["pet.created"],
			}),
			409,
			"webhook_limit",
		);
		for (const webhook of await (await api("/webhooks?limit=100")).json<
			CreatedWebhook[]
		>()) {
			await api(`/webhooks/${webhook.id}`, { method: "DELETE" });
		}
	});
});

describe("delivery", () => {
	it("signs each event per Standard Webhooks, and the standardwebhooks library verifies it", async () => {
		const webhook = await createWebhook(["order.placed"]);
		const pet = await stockedPet(5);
		const order = await (
			await placeOrder({ petId: pet.id, quantity: 1 })
		).json<Order>();
		const eventId = await eventOf(`/store/orders/${order.id}`);
		const received: Request[] = [];
		vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
			received.push(new Request(input, init));
			return new Response(null, { status: 204 });
		});
		const result = await runDelivery({
			kind: "delivery",
			eventId,
			webhookId: webhook.id,
		});
		expect(result.explicitAcks).toEqual([String(messageId)]);
		expect(received).toHaveLength(1);
		const [request] = received;
		expect(request.url).toBe(receiver);
		const body = await request.text();
		const headers = Object.fromEntries(request.headers);
		expect(headers["webhook-id"]).toBe(`evt_${eventId}`);
		const verifier = new Verifier(webhook.secret);
		// The library checks the timestamp against its own clock: verify as of the delivery's instant.
		vi.setSystemTime(testNow);
		try {
			expect(verifier.verify(body, headers)).toEqual({
				id: eventId,
				type: "order.placed",
				createdAt: new Date(testNow).toISOString(),
				data: order,
			});
			const forged = {
				...headers,
				"webhook-signature": headers["webhook-signature"].replace(/.$/, "A"),
			};
			expect(() => verifier.verify(`${body} `, forged)).toThrow();
		} finally {
			vi.useRealTimers();
		}
		expect(await webhookState(webhook.id)).toMatchObject({
			lastStatus: 204,
			failures: 0,
		});
	});

	it("retries with growing backoff while the receiver answers 500, then disables it after 10 in a row", async () => {
		const webhook = await createWebhook(["pet.created"]);
		const pet = await stockedPet(1);
		const eventId = await eventOf(`/pets/${pet.id}`);
		const fetch = vi
			.spyOn(globalThis, "fetch")
			.mockResolvedValue(new Response("down", { status: 500 }));
		const delays: (number | undefined)[] = [];
		for (let attempt = 1; attempt <= 10; attempt++) {
			const result = await runDelivery(
				{ kind: "delivery", eventId, webhookId: webhook.id },
				attempt,
			);
			expect(result.retryMessages).toHaveLength(1);
			delays.push(result.retryDelay);
		}
		expect(delays.slice(0, 4)).toEqual([10, 20, 40, 80]);
		expect(await webhookState(webhook.id)).toMatchObject({
			disabled: true,
			failures: 10,
			lastStatus: 500,
		});
		// A disabled endpoint gets nothing more: the delivery is acknowledged without a request.
		fetch.mockClear();
		const after = await runDelivery(
			{ kind: "delivery", eventId, webhookId: webhook.id },
			11,
		);
		expect(fetch).not.toHaveBeenCalled();
		expect(after.explicitAcks).toHaveLength(1);
	});

	it("fans the outbox out to the webhooks that asked for each type, then marks it handed over", async () => {
		const orders = await createWebhook(["order.placed"]);
		const pets = await createWebhook(["pet.created"]);
		const pet = await stockedPet(3);
		await placeOrder({ petId: pet.id, quantity: 1 });
		const sent = vi.spyOn(env.WEBHOOK_QUEUE, "sendBatch");
		await runDelivery({ kind: "sweep" });
		const deliveries = sent.mock.calls.flatMap(([messages]) =>
			[...messages].map((message) => message.body as WebhookMessage),
		);
		const petCreated = await eventOf(`/pets/${pet.id}`);
		expect(deliveries).toContainEqual({
			kind: "delivery",
			eventId: petCreated,
			webhookId: pets.id,
		});
		expect(deliveries).not.toContainEqual({
			kind: "delivery",
			eventId: petCreated,
			webhookId: orders.id,
		});
		sent.mockClear();
		await runDelivery({ kind: "sweep" });
		expect(sent).not.toHaveBeenCalled();
	});

	it("gives a new webhook what happens from its creation on, not what came before", async () => {
		const pet = await stockedPet(1);
		const later = await testApp({ now: testNow + 60_000 }).send(
			"POST",
			"/webhooks",
			{ url: receiver, events: ["pet.created"] },
		);
		const webhook = await later.json<CreatedWebhook>();
		const sent = vi.spyOn(env.WEBHOOK_QUEUE, "sendBatch");
		await runDelivery({ kind: "sweep" });
		const deliveries = sent.mock.calls.flatMap(([messages]) =>
			[...messages].map((message) => message.body as WebhookMessage),
		);
		expect(deliveries).not.toContainEqual({
			kind: "delivery",
			eventId: await eventOf(`/pets/${pet.id}`),
			webhookId: webhook.id,
		});
	});
});

describe("the nudge after a write", () => {
	it("never turns a committed write into an error: a queue that fails leaves the event for the sweep", async () => {
		const unreachable = {
			send: () => {
				throw new Error("the queue is unreachable");
			},
		} as unknown as Queue;
		vi.spyOn(console, "error").mockImplementation(() => {});
		const category = await testApp({
			bindings: { WEBHOOK_QUEUE: unreachable },
		}).send("POST", "/categories", { name: "Nudged" });
		expect(category.status).toBe(201);
		const { id } = await category.json<{ id: number }>();
		expect(await eventOf(`/categories/${id}`)).toBeGreaterThan(0);
	});
});
