import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { endpointOf } from "../src/webhooks/endpoint-config";
import { openSecret, sealSecret, UnreadableSecret } from "../src/webhooks/secrets/secret-box";
import { api, expectError, send, testApp } from "./support/api";
import { spareDatabase, watchedD1 } from "./support/d1";
import {
	type CreatedWebhook,
	categoryEvent,
	createWebhook,
	cronAt,
	deleteWebhooks,
	deliverAt,
	hour,
	lastAttempt,
	later,
	minute,
	mockReceivers,
	second,
	sweepAt,
	verify,
	webhookState,
} from "./support/webhooks";

const newWebhook = { url: "https://shop.example.com/hook", events: ["pet.created"] };

const createWith = (bindings: Partial<Env>) =>
	testApp({ bindings }).send("POST", "/webhooks", newWebhook);

const storedSecret = (id: number) =>
	env.DB.prepare("SELECT secret FROM webhooks WHERE id = ?").bind(id).first<string>("secret");

/** The keys the tests' Worker holds, newest first, and one it does not. */
const [newestKey, previousKey] = env.WEBHOOK_SECRET_KEY.split(",");
const otherKey = "another-webhook-secret-key-0123456789";
const keyIdOf = async (key: string) =>
	(await sealSecret("whsec_AAAA", { WEBHOOK_SECRET_KEY: key })).split(".")[1];

/** Replaces webhook `id`'s stored secret, as a Worker with other keys would have sealed it. */
const storeSealed = (id: number, sealed: string) =>
	env.DB.prepare("UPDATE webhooks SET secret = ? WHERE id = ?").bind(sealed, id).run();

/** The sealed secrets webhook `id`'s endpoint holds, newest first. */
const heldSecrets = (id: number) =>
	runInDurableObject(endpointOf(env, id), (instance) =>
		instance["store"].endpoint()?.secrets.map(({ secret }) => secret),
	);

afterEach(() => {
	vi.restoreAllMocks();
});

describe("webhook secrets at rest", () => {
	it("stores the secret encrypted: the column is neither the secret nor holds it, and the key opens it", async () => {
		const created = await (await send("POST", "/webhooks", newWebhook)).json<{
			id: number;
			secret: string;
		}>();
		expect(created.secret).toMatch(/^whsec_/);
		const stored = await storedSecret(created.id);
		expect(stored).toMatch(/^v2\.[0-9a-f]{8}\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
		expect(stored).not.toContain(created.secret.slice("whsec_".length));
		expect(await openSecret(stored ?? "", env)).toBe(created.secret);
		await api(`/webhooks/${created.id}`, { method: "DELETE" });
	});

	it("seals the same secret differently each time: a fresh IV per secret", async () => {
		const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
		const first = await sealSecret(secret, env);
		const second = await sealSecret(secret, env);
		expect(first).not.toBe(second);
		expect(first.split(".")[2]).not.toBe(second.split(".")[2]);
		expect(await openSecret(second, env)).toBe(secret);
	});

	it("cannot be opened with another key, nor once altered", async () => {
		const sealed = await sealSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", env);
		await expect(
			openSecret(sealed, { WEBHOOK_SECRET_KEY: "another-webhook-secret-key-0123456789" }),
		).rejects.toThrow();
		const [version, keyId, iv, ciphertext] = sealed.split(".");
		const altered = `${ciphertext[0] === "A" ? "B" : "A"}${ciphertext.slice(1)}`;
		await expect(openSecret(`${version}.${keyId}.${iv}.${altered}`, env)).rejects.toThrow();
		await expect(openSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", env)).rejects.toThrow(
			UnreadableSecret,
		);
	});

	it("stores no webhook where no key (or too short a one) is configured: it fails closed", async () => {
		vi.spyOn(console, "error").mockImplementation(() => {});
		for (const key of ["", "too-short"]) {
			const d1 = watchedD1(env.DB);
			const response = await createWith({ WEBHOOK_SECRET_KEY: key, DB: d1.binding });
			await expectError(response, 500, "internal_error");
			expect(d1.rowsChanged()).toBe(0);
			expect(d1.calls()).toBe(0);
		}
	});
});

describe("webhook secrets are never logged", () => {
	it("logs a failed insert by its query and cause, without the secret or any value bound to it", async () => {
		const logged: string[] = [];
		vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
			logged.push(args.map(String).join(" "));
		});
		// A database without the tables: the insert fails as a real statement does, with its values bound.
		const d1 = watchedD1(await spareDatabase());
		const response = await createWith({ DB: d1.binding });
		await expectError(response, 500, "internal_error");

		const bound = d1.sent().flatMap((statement) => statement.params);
		const sealed = bound.find((value): value is string => /^v2\./.test(String(value)));
		expect(sealed).toBeDefined();
		const secret = await openSecret(sealed ?? "", env);
		const values = bound.filter((value): value is string => typeof value === "string");
		expect(values).toEqual(
			expect.arrayContaining([newWebhook.url, JSON.stringify(newWebhook.events)]),
		);

		expect(logged).toHaveLength(1);
		const [line] = logged;
		expect(line).toContain("no such table: webhooks");
		expect(line).toContain(response.headers.get("x-request-id"));
		expect(line).not.toContain("params");
		for (const value of [secret, secret.slice("whsec_".length), ...values]) {
			expect(line).not.toContain(value);
		}
	});
});

describe("a keyed replay of createWebhook", () => {
	afterEach(deleteWebhooks);

	const keyedCreate = (key: string, app = testApp()) =>
		app.send("POST", "/webhooks", newWebhook, { "idempotency-key": key });

	const created = async (key: string) => {
		const response = await keyedCreate(key);
		expect(response.status).toBe(201);
		return response.json<CreatedWebhook>();
	};

	it("answers the secret again while it is still the webhook's", async () => {
		const key = crypto.randomUUID();
		const first = await created(key);
		const replay = await keyedCreate(key);
		expect(replay.status).toBe(201);
		expect(replay.headers.get("idempotency-replayed")).toBe("true");
		expect(await replay.json()).toEqual(first);
	});

	it("answers 410 gone, without a secret, once the secret has been rotated", async () => {
		const key = crypto.randomUUID();
		const first = await created(key);
		const rotated = await api(`/webhooks/${first.id}/rotate-secret`, { method: "POST" });
		expect(rotated.status).toBe(200);
		const replay = await keyedCreate(key);
		const body = await expectError(replay, 410, "gone");
		expect(body.message).toMatch(/rotated/);
		expect(JSON.stringify(body)).not.toContain(first.secret);
	});

	it("answers 410 gone, without a secret, once the webhook has been deleted", async () => {
		const key = crypto.randomUUID();
		const first = await created(key);
		await api(`/webhooks/${first.id}`, { method: "DELETE" });
		const replay = await keyedCreate(key);
		const body = await expectError(replay, 410, "gone");
		expect(body.message).toMatch(/deleted/);
		expect(JSON.stringify(body)).not.toContain(first.secret);
	});

	it("answers 410 gone, not a 500, once the key that sealed the secret is retired", async () => {
		const key = crypto.randomUUID();
		await created(key);
		const newerKeyOnly = testApp({ bindings: { WEBHOOK_SECRET_KEY: otherKey } });
		const replay = await keyedCreate(key, newerKeyOnly);
		const body = await expectError(replay, 410, "gone");
		expect(body.message).toMatch(/can no longer be opened/);
	});
});

describe("WEBHOOK_SECRET_KEY rotation", () => {
	afterEach(deleteWebhooks);

	it("opens secrets sealed under a previous key, and v1 values sealed before keys had ids", async () => {
		const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
		const underPrevious = await sealSecret(secret, { WEBHOOK_SECRET_KEY: previousKey });
		expect(await openSecret(underPrevious, env)).toBe(secret);
		const [, , iv, ciphertext] = (await sealSecret(secret, env)).split(".");
		expect(await openSecret(`v1.${iv}.${ciphertext}`, env)).toBe(secret);
		await expect(openSecret(underPrevious, { WEBHOOK_SECRET_KEY: newestKey })).rejects.toThrow(
			UnreadableSecret,
		);
	});

	it.each([
		["a previous key", (secret: string) => sealSecret(secret, { WEBHOOK_SECRET_KEY: previousKey })],
		[
			"the v1 format",
			async (secret: string) => {
				const [, , iv, ciphertext] = (await sealSecret(secret, env)).split(".");
				return `v1.${iv}.${ciphertext}`;
			},
		],
	])(
		"signs with a secret sealed under %s and stores it re-sealed under the newest key, once",
		async (_, seal) => {
			const receivers = mockReceivers();
			const webhook = await createWebhook(["category.created"]);
			await storeSealed(webhook.id, await seal(webhook.secret));
			const { eventId } = await categoryEvent();
			await sweepAt(later);
			await deliverAt(webhook.id, later);
			const [request] = receivers.received(webhook.url);
			expect(verify(webhook.secret, request, later)).toHaveProperty("id", eventId);
			// The every-minute sweep re-seals, in D1 and in the endpoint.
			await cronAt(later);
			const resealed = (await storedSecret(webhook.id)) ?? "";
			expect(resealed.split(".")[1]).toBe(await keyIdOf(newestKey));
			expect(await openSecret(resealed, { WEBHOOK_SECRET_KEY: newestKey })).toBe(webhook.secret);
			expect(await heldSecrets(webhook.id)).toEqual([resealed]);
			// The endpoint signs with the re-sealed secret, and the next sweep writes nothing.
			await categoryEvent();
			await sweepAt(later + second);
			await deliverAt(webhook.id, later + second);
			expect(receivers.received(webhook.url)).toHaveLength(2);
			await cronAt(later + minute);
			expect(await storedSecret(webhook.id)).toBe(resealed);
		},
	);

	/** A webhook whose stored secret no configured key opens, with one event attempted: nothing is sent. */
	const attemptedUnreadable = async () => {
		const receivers = mockReceivers();
		const webhook = await createWebhook(["category.created"]);
		await storeSealed(
			webhook.id,
			await sealSecret(webhook.secret, { WEBHOOK_SECRET_KEY: otherKey }),
		);
		const { eventId } = await categoryEvent();
		await sweepAt(later);
		await deliverAt(webhook.id, later);
		expect(receivers.received(webhook.url)).toEqual([]);
		return { receivers, webhook, eventId };
	};

	it("records a secret no configured key opens as a failed attempt of its webhook, which disables it in time", async () => {
		const { receivers, webhook, eventId } = await attemptedUnreadable();
		expect(await lastAttempt(webhook.id)).toMatchObject({
			eventId,
			attempt: 1,
			status: 0,
			error: expect.stringMatching(/signing secret cannot be opened/),
			outcome: "retrying",
		});
		expect(await webhookState(webhook.id)).toMatchObject({
			failures: 1,
			lastStatus: 0,
			disabled: false,
		});
		await deliverAt(webhook.id, later + 25 * hour);
		expect(await webhookState(webhook.id)).toMatchObject({ failures: 2, disabled: true });
		expect(receivers.received(webhook.url)).toEqual([]);
	});

	it("recovers with rotate-secret: the new secret signs alone, the unreadable one it replaced no longer counts", async () => {
		const { receivers, webhook, eventId } = await attemptedUnreadable();
		const rotated = await testApp({ now: later }).api(`/webhooks/${webhook.id}/rotate-secret`, {
			method: "POST",
		});
		const { secret } = await rotated.json<CreatedWebhook>();
		vi.spyOn(console, "warn").mockImplementation(() => {});
		await deliverAt(webhook.id, later + minute);
		const [request] = receivers.received(webhook.url);
		expect(request.headers["webhook-signature"].split(" ")).toHaveLength(1);
		expect(verify(secret, request, later + minute)).toHaveProperty("id", eventId);
		expect(await lastAttempt(webhook.id)).toMatchObject({
			eventId,
			attempt: 2,
			outcome: "delivered",
		});
	});
});
