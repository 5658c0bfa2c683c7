import {
	createExecutionContext,
	createMessageBatch,
	createScheduledController,
	getQueueResult,
	runInDurableObject,
	waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook as Verifier } from "standardwebhooks";
import { expect, vi } from "vitest";
import worker from "../../src/index";
import type { WebhookDelivery } from "../../src/models/webhook-delivery";
import { endpointOf } from "../../src/webhooks/endpoint-config";
import { consume } from "../../src/webhooks/outbox/events";
import type { WebhookMessage } from "../../src/webhooks/outbox/nudge";
import { api, collectPages, createCategory, send } from "./api";

/**
 * The instant the delivery tests hand events over and deliver at: after any day the suite will run on, so an
 * endpoint's own alarm (on the real clock) never finds a delivery due, and only the tests deliver, at the
 * instants they name.
 */
export const later = Date.parse("2100-01-01T00:00:00Z");

export const second = 1000;
export const minute = 60 * second;
export const hour = 60 * minute;

export type CreatedWebhook = {
	id: number;
	url: string;
	events: string[];
	secret: string;
	disabled: boolean;
	failures: number;
	lastStatus: number | null;
	lastAttemptAt: string | null;
};

/** One attempt of a webhook's log, as `listWebhookDeliveries` answers it. */
export type Attempt = WebhookDelivery;

let receiverCount = 0;
/** A receiver URL no other webhook of the test file uses. */
export const receiverUrl = () => `http://127.0.0.1:9999/hook/${++receiverCount}`;

/**
 * A new webhook for `events` at `url`. The outbox is swept first: every event is written at the tests' one instant,
 * so one an earlier test left waiting would count as made since the webhook's creation.
 */
export const createWebhook = async (
	events: string[],
	url = receiverUrl(),
): Promise<CreatedWebhook> => {
	await sweepAt(later);
	const response = await send("POST", "/webhooks", { url, events });
	expect(response.status).toBe(201);
	return response.json<CreatedWebhook>();
};

export const webhookState = async (id: number) =>
	(await api(`/webhooks/${id}`)).json<CreatedWebhook>();

/** Deletes every webhook, and with it what its endpoint holds. */
export const deleteWebhooks = async () => {
	const { items } = await collectPages<{ id: number }>("/webhooks?limit=100");
	for (const { id } of items) await api(`/webhooks/${id}`, { method: "DELETE" });
};

let messageId = 0;
/** Runs the queue consumer at `now` on one batch of `nudges` nudges, as the platform would. */
export const sweepAt = async (now = later, nudges = 1) => {
	const batch = createMessageBatch<WebhookMessage>(
		"petstore-webhooks",
		Array.from({ length: nudges }, () => ({
			id: String(++messageId),
			timestamp: new Date(now),
			attempts: 1,
			body: { kind: "sweep" as const },
		})),
	);
	await consume(batch, env, now);
	return getQueueResult(batch, createExecutionContext());
};

/** Runs the every-minute Cron Trigger at `now`, as the platform would. */
export const cronAt = async (now: number) => {
	const ctx = createExecutionContext();
	await worker.scheduled(
		createScheduledController({ scheduledTime: now, cron: "* * * * *" }),
		env,
		ctx,
	);
	await waitOnExecutionContext(ctx);
};

/** Runs webhook `id`'s delivery work at `now`, as its alarm would. */
export const deliverAt = (id: number, now: number) => endpointOf(env, id).deliverDue(now);

/**
 * Runs webhook `id`'s delivery work at `now` as a Worker whose bindings are the suite's with `bindings` instead
 * (a deployment's rules): an endpoint reads its env from the runtime, so this one run is handed that env.
 */
export const deliverUnderAt = (id: number, now: number, bindings: Partial<Env>) =>
	runInDurableObject(endpointOf(env, id), async (endpoint) => {
		const own = Reflect.get(endpoint, "env");
		Reflect.set(endpoint, "env", { ...own, ...bindings });
		try {
			await endpoint.deliverDue(now);
		} finally {
			Reflect.set(endpoint, "env", own);
		}
	});

/** The webhook's attempt log, newest first, through `listWebhookDeliveries`. */
export const attemptsOf = async (id: number) => {
	const response = await api(`/webhooks/${id}/deliveries?limit=100`);
	expect(response.status).toBe(200);
	return response.json<Attempt[]>();
};

/** The newest attempt of the webhook's log. */
export const lastAttempt = async (id: number) => (await attemptsOf(id))[0];

/** A request a receiver got, read where it was sent (a Durable Object's I/O stays in its own context). */
export type Received = {
	url: string;
	method: string;
	redirect: string;
	headers: Record<string, string>;
	body: string;
};

type Answer = (request: Received) => Response | Promise<Response>;

/** Where deliveries resolve a receiver's name (src/http/public-hosts.ts). */
const resolver = "https://cloudflare-dns.com/dns-query";

/** A public address every name resolves to unless a test says otherwise (RFC 5737 has none that is public). */
export const publicAddress = "93.184.215.14";

/** The resolver's JSON answer (Cloudflare's DNS over HTTPS) of a query for `name`: its addresses of that type. */
const dnsAnswer = (url: string, addresses: Record<string, string[]>) => {
	const query = new URL(url).searchParams;
	const [name, type] = [query.get("name") ?? "", query.get("type")];
	const data = (addresses[name] ?? [publicAddress]).filter(
		(a) => a.includes(":") === (type === "AAAA"),
	);
	return Response.json({
		Status: 0,
		Answer: data.map((address) => ({
			name,
			type: type === "AAAA" ? 28 : 1,
			TTL: 60,
			data: address,
		})),
	});
};

/**
 * Stands in for every receiver (endpoints call the isolate's `fetch`): answers each request with the answer
 * set for its URL (204 unless told otherwise), and keeps every request made. It answers the DNS resolver too:
 * every name resolves to {@link publicAddress} unless `resolves` says otherwise.
 */
export const mockReceivers = () => {
	const answers = new Map<string, Answer>();
	const addresses: Record<string, string[]> = {};
	const received: Received[] = [];
	const fetch = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
		const request = new Request(input, init);
		const copy = {
			url: request.url,
			method: request.method,
			redirect: request.redirect,
			headers: Object.fromEntries(request.headers),
			body: await request.text(),
		};
		received.push(copy);
		if (copy.url.startsWith(resolver)) return dnsAnswer(copy.url, addresses);
		const answer = answers.get(copy.url) ?? (() => new Response(null, { status: 204 }));
		return answer(copy);
	});
	return {
		fetch,
		answer: (url: string, answer: Answer) => answers.set(url, answer),
		/** Has the DNS resolver answer `name` with these addresses (none: the name does not resolve). */
		resolves: (name: string, ...to: string[]) => {
			addresses[name] = to;
		},
		/** The names the DNS resolver was asked, with the type asked. */
		lookups: () =>
			received
				.filter((request) => request.url.startsWith(resolver))
				.map((request) => {
					const query = new URL(request.url).searchParams;
					return `${query.get("name")} ${query.get("type")}`;
				}),
		received: (url: string) => received.filter((request) => request.url === url),
		/** The `webhook-id`s that reached `url`. */
		ids: (url: string) =>
			received
				.filter((request) => request.url === url)
				.map((request) => request.headers["webhook-id"]),
	};
};

/** The newest event of a resource, named by its path. */
export const newestEvent = async (subject: string) => {
	const { items } = await collectPages<{ id: number }>(
		`/events?subject=${encodeURIComponent(subject)}&limit=100`,
	);
	return items.at(-1)?.id ?? 0;
};

/** A new category, and its `category.created` event id. */
export const categoryEvent = async () => {
	const category = await createCategory();
	return { category, eventId: await newestEvent(`/categories/${category.id}`) };
};

/**
 * A new webhook for `category.created` whose receiver answers with `answer`, once a new category's event has
 * been handed over and attempted at {@link later}.
 */
export const attemptedOnce = async (answer?: Answer) => {
	const receivers = mockReceivers();
	const webhook = await createWebhook(["category.created"]);
	if (answer) receivers.answer(webhook.url, answer);
	const { category, eventId } = await categoryEvent();
	await sweepAt(later);
	await deliverAt(webhook.id, later);
	return { receivers, webhook, category, eventId };
};

/** Verifies a received delivery with the standardwebhooks library, as of the instant `at`. */
export const verify = (secret: string, request: Received, at: number) => {
	vi.setSystemTime(at);
	try {
		return new Verifier(secret).verify(request.body, request.headers);
	} finally {
		vi.useRealTimers();
	}
};

/** An attempt's time: the second a run started at `at`, an attempt taking its own time within it. */
export const duringSecond = (at: number) =>
	expect.stringMatching(new RegExp(`^${new Date(at).toISOString().slice(0, 19)}`));
