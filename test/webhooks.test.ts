import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { anonymous, api, collectPages, expectError, send, testApp } from "./support/api";
import {
	type Attempt,
	attemptedOnce,
	type CreatedWebhook,
	categoryEvent,
	createWebhook,
	deleteWebhooks,
	deliverAt,
	duringSecond,
	hour,
	later,
	minute,
	newestEvent,
	receiverUrl,
	sweepAt,
	webhookState,
} from "./support/webhooks";

const receiver = "http://127.0.0.1:9999/hook";

afterEach(async () => {
	vi.restoreAllMocks();
	await deleteWebhooks();
});

describe("webhooks: create, read, delete", () => {
	it("answers the signing secret once, then shows the webhook without it", async () => {
		const created = await createWebhook(["order.placed"]);
		expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
		const shown = await webhookState(created.id);
		expect(shown).not.toHaveProperty("secret");
		expect(shown).toMatchObject({
			url: created.url,
			events: ["order.placed"],
			disabled: false,
			failures: 0,
			lastStatus: null,
		});
		const listed = await (await api("/webhooks?limit=100")).json<CreatedWebhook[]>();
		expect(listed.every((webhook) => !("secret" in webhook))).toBe(true);
		expect((await api(`/webhooks/${created.id}`, { method: "DELETE" })).status).toBe(204);
		await expectError(await api(`/webhooks/${created.id}`), 404, "not_found");
	});

	it("replays a keyed create with the same webhook and secret, creating one, and keeps the secret sealed", async () => {
		const key = crypto.randomUUID();
		const request = { url: receiver, events: ["pet.created"] };
		const first = await send("POST", "/webhooks", request, { "idempotency-key": key });
		expect(first.status).toBe(201);
		const created = await first.json<CreatedWebhook>();
		const retry = await send("POST", "/webhooks", request, { "idempotency-key": key });
		expect(retry.status).toBe(201);
		expect(retry.headers.get("idempotency-replayed")).toBe("true");
		expect(retry.headers.get("etag")).toBe(first.headers.get("etag"));
		expect(await retry.json()).toEqual(created);
		const listed = await (await api("/webhooks?limit=100")).json<CreatedWebhook[]>();
		expect(listed.filter((webhook) => webhook.url === receiver)).toHaveLength(1);
		const record = await env.DB.prepare("SELECT body FROM idempotency_keys WHERE key = ?")
			.bind(`root:${key}`)
			.first<string>("body");
		expect(record).not.toContain(created.secret);
		expect(record).not.toContain(created.secret.slice("whsec_".length));
		await expectError(
			await send(
				"POST",
				"/webhooks",
				{ ...request, events: ["pet.updated"] },
				{ "idempotency-key": key },
			),
			422,
			"idempotency_key_reused",
		);
	});

	it("needs the token to read as well as to write", async () => {
		await expectError(await anonymous("/webhooks"), 401, "unauthorized");
		await expectError(await anonymous("/webhooks/1"), 401, "unauthorized");
	});
});

describe("webhooks: hostile input", () => {
	it.each([
		["plain http to another host", "http://shop.example.com/hook"],
		["credentials", "https://user:secret@shop.example.com/hook"],
		["more than 2,048 characters", `https://shop.example.com/${"a".repeat(2048)}`],
		["no URL at all", "shop.example.com/hook"],
		["another scheme", "ftp://shop.example.com/hook"],
	])("refuses %s with a validation_error on body.url", async (_, url) => {
		const error = await expectError(
			await send("POST", "/webhooks", { url, events: ["pet.created"] }),
			400,
			"validation_error",
		);
		expect(error.details?.map((detail) => detail.path)).toContain("body.url");
	});

	it("refuses plain http to this machine outside local development", async () => {
		const deployed = testApp({ bindings: { WEBHOOKS_ALLOW_LOOPBACK: "false" } });
		for (const url of [receiver, "http://localhost:9999/hook"]) {
			const error = await expectError(
				await deployed.send("POST", "/webhooks", { url, events: ["pet.created"] }),
				400,
				"validation_error",
			);
			expect(error.details).toEqual([{ path: "body.url", message: "must be https" }]);
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
		for (let i = existing.length; i < 20; i++) await createWebhook(["pet.created"]);
		await expectError(
			await send("POST", "/webhooks", { url: receiver, events: ["pet.created"] }),
			409,
			"webhook_limit",
		);
	});
});

describe("the nudge after a write", () => {
	it("follows a write that succeeded, never a read", async () => {
		const sent = vi.spyOn(env.WEBHOOK_QUEUE, "send");
		expect((await anonymous("/pets", { method: "HEAD" })).status).toBe(200);
		expect((await anonymous("/pets")).status).toBe(200);
		expect(sent).not.toHaveBeenCalled();
		expect(
			(await send("POST", "/categories", { name: `Nudging ${crypto.randomUUID()}` })).status,
		).toBe(201);
		expect(sent).toHaveBeenCalledTimes(1);
	});

	it("never turns a committed write into an error: a queue that fails leaves the event for the sweep", async () => {
		const unreachable = {
			send: () => {
				throw new Error("the queue is unreachable");
			},
		} as unknown as Queue;
		vi.spyOn(console, "error").mockImplementation(() => {});
		const category = await testApp({ bindings: { WEBHOOK_QUEUE: unreachable } }).send(
			"POST",
			"/categories",
			{ name: "Nudged" },
		);
		expect(category.status).toBe(201);
		const { id } = await category.json<{ id: number }>();
		expect(await newestEvent(`/categories/${id}`)).toBeGreaterThan(0);
	});
});

describe("updateWebhook", () => {
	it("changes the URL and the event types, honouring If-Match", async () => {
		const webhook = await createWebhook(["pet.created"]);
		const etag = (await api(`/webhooks/${webhook.id}`)).headers.get("etag");
		const url = receiverUrl();
		const changed = await send(
			"PATCH",
			`/webhooks/${webhook.id}`,
			{ url, events: ["category.created", "webhook.disabled"] },
			{ "if-match": etag ?? "" },
		);
		expect(changed.status).toBe(200);
		expect(changed.headers.get("etag")).not.toBe(etag);
		expect(await changed.json()).toMatchObject({
			url,
			events: ["category.created", "webhook.disabled"],
		});
		await expectError(
			await send(
				"PATCH",
				`/webhooks/${webhook.id}`,
				{ disabled: true },
				{ "if-match": etag ?? "" },
			),
			412,
			"precondition_failed",
		);
	});

	it("sends pending deliveries to the new URL", async () => {
		const { receivers, webhook, eventId } = await attemptedOnce(
			() => new Response(null, { status: 500 }),
		);
		const url = receiverUrl();
		await send("PATCH", `/webhooks/${webhook.id}`, { url });
		const before = receivers.received(webhook.url).length;
		await deliverAt(webhook.id, later + minute);
		expect(receivers.received(webhook.url)).toHaveLength(before);
		expect(receivers.ids(url)).toContain(`evt_${eventId}`);
	});

	it("refuses an empty change, an unknown field, plain http elsewhere and an unknown webhook", async () => {
		const webhook = await createWebhook(["pet.created"]);
		for (const body of [{}, { secret: "whsec_AAAA" }, { url: "http://shop.example.com/hook" }]) {
			await expectError(
				await send("PATCH", `/webhooks/${webhook.id}`, body),
				400,
				"validation_error",
			);
		}
		await expectError(
			await send("PATCH", "/webhooks/987654321", { disabled: false }),
			404,
			"not_found",
		);
	});
});

describe("delivery state and the ETag", () => {
	it("shows each webhook's delivery state, which never changes its ETag", async () => {
		const { webhook } = await attemptedOnce(() => new Response(null, { status: 503 }));
		const first = await api(`/webhooks/${webhook.id}`);
		const etag = first.headers.get("etag");
		expect(await first.json()).toMatchObject({
			failures: 1,
			lastStatus: 503,
			lastAttemptAt: duringSecond(later),
			disabled: false,
		});
		await deliverAt(webhook.id, later + minute);
		const shown = await api(`/webhooks/${webhook.id}`);
		expect(shown.headers.get("etag")).toBe(etag);
		expect(await shown.json()).toMatchObject({
			failures: 2,
			lastAttemptAt: duringSecond(later + minute),
		});
		const listed = await (await api("/webhooks?limit=100")).json<CreatedWebhook[]>();
		expect(listed.find(({ id }) => id === webhook.id)).toMatchObject({
			failures: 2,
			lastStatus: 503,
		});
		// A busy webhook can still be deleted by its ETag.
		expect(
			(
				await api(`/webhooks/${webhook.id}`, {
					method: "DELETE",
					headers: { "if-match": etag ?? "" },
				})
			).status,
		).toBe(204);
	});
});

describe("rotateWebhookSecret", () => {
	it("answers a new secret once, and changes the ETag", async () => {
		const webhook = await createWebhook(["pet.created"]);
		const before = (await api(`/webhooks/${webhook.id}`)).headers.get("etag");
		const rotated = await api(`/webhooks/${webhook.id}/rotate-secret`, { method: "POST" });
		expect(rotated.status).toBe(200);
		expect(rotated.headers.get("etag")).not.toBe(before);
		const body = await rotated.json<CreatedWebhook>();
		expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
		expect(body.secret).not.toBe(webhook.secret);
		expect(await webhookState(webhook.id)).not.toHaveProperty("secret");
		await expectError(
			await api("/webhooks/987654321/rotate-secret", { method: "POST" }),
			404,
			"not_found",
		);
	});
});

describe("replayWebhook", () => {
	it("accepts a replay with 202, and refuses a bad one", async () => {
		const webhook = await createWebhook(["pet.created"]);
		expect((await send("POST", `/webhooks/${webhook.id}/replay`, { after: 0 })).status).toBe(202);
		for (const body of [{}, { after: -1 }, { after: 1, more: true }]) {
			await expectError(
				await send("POST", `/webhooks/${webhook.id}/replay`, body),
				400,
				"validation_error",
			);
		}
		await expectError(
			await send("POST", "/webhooks/987654321/replay", { after: 0 }),
			404,
			"not_found",
		);
	});
});

describe("listWebhookDeliveries", () => {
	it("pages through the attempts, newest first", async () => {
		const { webhook, eventId } = await attemptedOnce(() => new Response(null, { status: 500 }));
		const events = [eventId, (await categoryEvent()).eventId];
		await sweepAt(later);
		await deliverAt(webhook.id, later);
		await deliverAt(webhook.id, later + minute);
		await deliverAt(webhook.id, later + 2 * minute);
		const { items, pages } = await collectPages<Attempt>(
			`/webhooks/${webhook.id}/deliveries?limit=4`,
		);
		expect(pages).toEqual([4, 2]);
		expect(items.map(({ id }) => id)).toEqual(items.map(({ id }) => id).sort((a, b) => b - a));
		expect(items.map(({ eventId, attempt }) => [eventId, attempt])).toEqual(
			expect.arrayContaining([
				[events[0], 3],
				[events[1], 3],
				[events[0], 1],
			]),
		);
		expect(items[0]).toMatchObject({
			status: 500,
			error: "answered 500",
			outcome: "retrying",
			attemptedAt: duringSecond(later + 2 * minute),
		});
	});

	it("answers 404 for an unknown webhook, and 400 for a cursor of another list", async () => {
		await expectError(await api("/webhooks/987654321/deliveries"), 404, "not_found");
		const webhook = await createWebhook(["pet.created"]);
		await expectError(
			await api(`/webhooks/${webhook.id}/deliveries?cursor=1.AAAAAAAAAAAAAAAAAAAAAA`),
			400,
			"validation_error",
		);
	});

	it("forgets a deleted webhook's deliveries: none is attempted again", async () => {
		const { receivers, webhook } = await attemptedOnce(() => new Response(null, { status: 500 }));
		expect((await api(`/webhooks/${webhook.id}`, { method: "DELETE" })).status).toBe(204);
		await deliverAt(webhook.id, later + hour);
		expect(receivers.received(webhook.url)).toHaveLength(1);
	});
});
