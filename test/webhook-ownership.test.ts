import { afterEach, describe, expect, it, vi } from "vitest";
import { limits } from "../src/models/limits";
import { api, expectError, send, testApp, uniqueName } from "./support/api";
import {
	type CreatedWebhook,
	categoryEvent,
	deliverAt,
	later,
	mockReceivers,
	newestEvent,
	receiverUrl,
	sweepAt,
} from "./support/webhooks";

afterEach(() => {
	vi.restoreAllMocks();
});

/** A new key with `webhooks:manage` (and `more` scopes), and the app as its client. */
const client = async (...more: string[]) => {
	const response = await send("POST", "/keys", {
		name: uniqueName("Client"),
		scopes: ["webhooks:manage", ...more],
	});
	const key = await response.json<{ id: number; secret: string }>();
	return { key, app: testApp({ credential: key.secret }) };
};

const newWebhook = async (app: ReturnType<typeof testApp>, events = ["category.created"]) => {
	const response = await app.send("POST", "/webhooks", { url: receiverUrl(), events });
	expect(response.status).toBe(201);
	return response.json<CreatedWebhook>();
};

/** The ids of the webhooks `app`'s client lists (fewer than a page: the test makes few). */
const idsOf = async (app: ReturnType<typeof testApp>) =>
	(await (await app.api("/webhooks?limit=100")).json<{ id: number }[]>()).map(({ id }) => id);

describe("a webhook", () => {
	it("belongs to the client that made it: another's answers 404 as one that does not exist", async () => {
		const [one, other] = [await client(), await client()];
		const mine = await newWebhook(one.app);
		const missing = 9_007_199_254_740_991;
		for (const [method, path, body] of [
			["GET", "", undefined],
			["PATCH", "", { disabled: true }],
			["POST", "/rotate-secret", undefined],
			["POST", "/replay", { after: 0 }],
			["GET", "/deliveries", undefined],
			["DELETE", "", undefined],
		] as const) {
			const request = (id: number) =>
				body === undefined
					? other.app.api(`/webhooks/${id}${path}`, { method })
					: other.app.send(method, `/webhooks/${id}${path}`, body);
			const theirs = await expectError(await request(mine.id), 404, "not_found");
			const none = await expectError(await request(missing), 404, "not_found");
			expect(theirs.message.replace(String(mine.id), "N")).toBe(
				none.message.replace(String(missing), "N"),
			);
		}
		expect(await (await one.app.api(`/webhooks/${mine.id}`)).json()).toMatchObject({
			id: mine.id,
			disabled: false,
		});
	});

	it("is listed to its client only, and to the root token with every other", async () => {
		const [one, other] = [await client(), await client()];
		const [first, second] = [await newWebhook(one.app), await newWebhook(other.app)];
		const rootMade = await newWebhook(testApp());
		expect(await idsOf(one.app)).toEqual([first.id]);
		expect(await idsOf(other.app)).toEqual([second.id]);
		expect(await idsOf(testApp())).toEqual(
			expect.arrayContaining([first.id, second.id, rootMade.id]),
		);
	});

	it("counts against its own client's limit, never another's", async () => {
		const [one, other] = [await client(), await client()];
		for (let made = 0; made < limits.webhooks; made++) await newWebhook(one.app);
		await expectError(
			await one.app.send("POST", "/webhooks", { url: receiverUrl(), events: ["pet.created"] }),
			409,
			"webhook_limit",
		);
		await newWebhook(other.app);
	});
});

describe("revoking a key", () => {
	it("disables its webhooks at once, recording webhook.disabled, and none gets a delivery after", async () => {
		const receivers = mockReceivers();
		const { key, app } = await client();
		const webhook = await newWebhook(app);
		const watcher = await newWebhook(testApp(), ["webhook.disabled"]);
		expect((await api(`/keys/${key.id}`, { method: "DELETE" })).status).toBe(204);
		expect(await (await api(`/webhooks/${webhook.id}`)).json()).toMatchObject({ disabled: true });
		expect(await newestEvent(`/webhooks/${webhook.id}`)).toBeGreaterThan(0);
		await categoryEvent();
		await sweepAt(later);
		await deliverAt(webhook.id, later);
		await deliverAt(watcher.id, later);
		expect(receivers.received(webhook.url)).toEqual([]);
		const [disabled] = receivers.received(watcher.url);
		expect(JSON.parse(disabled.body)).toMatchObject({
			type: "webhook.disabled",
			data: { id: webhook.id, disabled: true, failures: 0 },
		});
	});
});
