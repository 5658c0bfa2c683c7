import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getEndpoint } from "../src/resources/webhooks/queries";
import { endpointOf } from "../src/webhooks/endpoint-config";
import { sweep } from "../src/webhooks/outbox/events";
import { anonymous, api, testApp, testNow } from "./support/api";
import {
	attemptedOnce,
	attemptsOf,
	categoryEvent,
	createWebhook,
	deleteWebhooks,
	deliverAt,
	deliverUnderAt,
	hour,
	lastAttempt,
	later,
	minute,
	mockReceivers,
	newestEvent,
	type Received,
	second,
	sweepAt,
	verify,
	webhookState,
} from "./support/webhooks";

afterEach(async () => {
	vi.restoreAllMocks();
	await deleteWebhooks();
});

/** The app at {@link later}, so that what a request schedules is due only when the test delivers. */
const laterApp = testApp({ now: later });

const failing =
	(status: number, headers: Record<string, string> = {}) =>
	() =>
		new Response(null, { status, headers });

describe("a delivery", () => {
	it("is the event, POSTed with a User-Agent and signed per Standard Webhooks, which the standardwebhooks library verifies", async () => {
		const { receivers, webhook, category, eventId } = await attemptedOnce();
		const [request] = receivers.received(webhook.url);
		expect(request.method).toBe("POST");
		expect(request.redirect).toBe("manual");
		expect(request.headers["content-type"]).toBe("application/json");
		expect(request.headers["user-agent"]).toMatch(/^Petstore-Webhooks\//);
		expect(request.headers["webhook-timestamp"]).toBe(String(later / 1000));
		expect(verify(webhook.secret, request, later)).toEqual({
			id: eventId,
			type: "category.created",
			createdAt: new Date(testNow).toISOString(),
			data: category,
		});
		expect(() => verify(webhook.secret, request, later + hour)).toThrow();
		expect(await lastAttempt(webhook.id)).toMatchObject({
			eventId,
			attempt: 1,
			status: 204,
			error: null,
			outcome: "delivered",
			nextAttemptAt: null,
		});
	});

	it("goes to each webhook that receives its type, from the webhook's creation on", async () => {
		const receivers = mockReceivers();
		const categories = await createWebhook(["category.created"]);
		const pets = await createWebhook(["pet.created"]);
		const { eventId } = await categoryEvent();
		const newer = await (
			await testApp({ now: testNow + minute }).send("POST", "/webhooks", {
				url: `${categories.url}/newer`,
				events: ["category.created"],
			})
		).json<{ id: number; url: string }>();
		await sweepAt(later);
		for (const { id } of [categories, pets, newer]) await deliverAt(id, later);
		const { ids } = receivers;
		expect(ids(categories.url)).toContain(`evt_${eventId}`);
		expect(ids(pets.url)).not.toContain(`evt_${eventId}`);
		expect(ids(newer.url)).not.toContain(`evt_${eventId}`);
	});

	it("is sent once when the sweep hands its event over twice", async () => {
		const receivers = mockReceivers();
		const webhook = await createWebhook(["category.created"]);
		const { eventId } = await categoryEvent();
		await sweepAt(later);
		await deliverAt(webhook.id, later);
		// As after a crash between handing the event over and marking it: the same event again.
		await env.DB.prepare("UPDATE events SET fanned_out_at = NULL WHERE id = ?").bind(eventId).run();
		await sweepAt(later + minute);
		await deliverAt(webhook.id, later + minute);
		expect(receivers.ids(webhook.url).filter((id) => id === `evt_${eventId}`)).toHaveLength(1);
	});
});

describe("a receiver's name", () => {
	/** A webhook at `url`, one `category.created` event, handed over and attempted once at {@link later}. */
	const attemptedAt = async (url: string, receivers: ReturnType<typeof mockReceivers>) => {
		const webhook = await createWebhook(["category.created"], url);
		await categoryEvent();
		await sweepAt(later);
		await deliverAt(webhook.id, later);
		return { webhook, sent: receivers.received(url) };
	};

	it("is resolved over DNS over HTTPS before each run of deliveries, which goes out only to public addresses", async () => {
		const receivers = mockReceivers();
		receivers.resolves(
			"hooks.example.com",
			"93.184.215.14",
			"2606:2800:21f:cb07:6820:80da:af6b:8b2c",
		);
		const { webhook, sent } = await attemptedAt("https://hooks.example.com/in", receivers);
		expect(sent).toHaveLength(1);
		expect(receivers.lookups()).toEqual(
			expect.arrayContaining(["hooks.example.com A", "hooks.example.com AAAA"]),
		);
		expect(await lastAttempt(webhook.id)).toMatchObject({ outcome: "delivered" });
	});

	it.each([
		[
			"the cloud metadata address",
			"169.254.169.254.nip.io",
			["169.254.169.254"],
			"a link-local address",
		],
		[
			"a private address beside a public one",
			"mixed.example.com",
			["93.184.215.14", "10.0.0.7"],
			"a private address",
		],
		["a unique-local IPv6 address", "v6.example.com", ["fd12::7"], "a unique-local address"],
		[
			"an IPv4-mapped private address",
			"mapped.example.com",
			["::ffff:192.168.1.1"],
			"a private address",
		],
	])(
		"never receives a delivery when it resolves to %s: the attempt fails saying so, and is retried",
		async (_, name, addresses, what) => {
			const receivers = mockReceivers();
			receivers.resolves(name, ...addresses);
			const { webhook, sent } = await attemptedAt(`https://${name}/hook`, receivers);
			expect(sent).toEqual([]);
			expect(await lastAttempt(webhook.id)).toMatchObject({
				status: 0,
				outcome: "retrying",
				error: expect.stringMatching(
					new RegExp(`^${name.replaceAll(".", "\\.")} resolves to .*, ${what}; not sent$`),
				),
			});
		},
	);

	it("that does not resolve is not sent to, and the attempt says so", async () => {
		const receivers = mockReceivers();
		receivers.resolves("gone.example.com");
		const { webhook, sent } = await attemptedAt("https://gone.example.com/hook", receivers);
		expect(sent).toEqual([]);
		expect(await lastAttempt(webhook.id)).toMatchObject({
			error: "gone.example.com does not resolve; not sent",
		});
	});
});

describe("a receiver on this machine", () => {
	/** A deployment's rules: loopback refused (wrangler.toml). */
	const deployed = { WEBHOOKS_ALLOW_LOOPBACK: "false" };

	it.each([
		["127.0.0.1", "http://127.0.0.1:9999/hook", "127.0.0.1"],
		["IPv4-mapped ::1", "https://[::ffff:127.0.0.1]/hook", "[::ffff:7f00:1]"],
		["localhost", "http://localhost:8787/hook", "localhost"],
	])(
		"stored at %s while loopback was allowed is not delivered to once the rules refuse loopback: the attempt records why, and the retry goes once they allow it again",
		async (_, url, host) => {
			const receivers = mockReceivers();
			const webhook = await createWebhook(["category.created"], url);
			const { eventId } = await categoryEvent();
			await sweepAt(later);
			await deliverUnderAt(webhook.id, later, deployed);
			expect(receivers.received(webhook.url)).toEqual([]);
			expect(receivers.lookups()).toEqual([]);
			const refused = await lastAttempt(webhook.id);
			expect(refused).toMatchObject({
				eventId,
				status: 0,
				outcome: "retrying",
				error: `${host} is a loopback host; not sent`,
			});
			await deliverAt(webhook.id, Date.parse(refused.nextAttemptAt ?? ""));
			expect(receivers.ids(webhook.url)).toEqual([`evt_${eventId}`]);
			expect(await lastAttempt(webhook.id)).toMatchObject({ eventId, outcome: "delivered" });
		},
	);
});

describe("a backlog", () => {
	it("is handed over in rounds of a hundred and delivered a hundred a run, every event once", async () => {
		const receivers = mockReceivers();
		const webhook = await createWebhook(["category.created"]);
		const backlog = 250;
		await env.DB.prepare(
			`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
			INSERT INTO events (type, subject, created_at, data)
			SELECT 'category.created', '/categories/' || i, ?2, json_object('id', i, 'name', 'Backlog ' || i) FROM n`,
		)
			.bind(backlog, new Date(testNow).toISOString())
			.run();
		await sweepAt(later);
		for (let run = 0; run < backlog / 100; run++) {
			await deliverAt(webhook.id, later);
		}
		const ids = receivers.ids(webhook.url);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.length).toBeGreaterThanOrEqual(backlog);
	});
});

describe("retries", () => {
	const steps = [
		5 * second,
		30 * second,
		2 * minute,
		15 * minute,
		hour,
		4 * hour,
		10 * hour,
		10 * hour,
	];

	it("come at once, then after 5 s, 30 s, 2 min, 15 min, 1 h, 4 h, 10 h and 10 h, each up to 20% later; the last failure is recorded as exhausted and, after 24 hours without a success, disables the endpoint", async () => {
		const { receivers, webhook, eventId } = await attemptedOnce(failing(500));
		const watcher = await createWebhook(["webhook.disabled"]);
		let now = later;
		for (const [index, step] of steps.entries()) {
			const attempt = await lastAttempt(webhook.id);
			expect(attempt).toMatchObject({
				eventId,
				attempt: index + 1,
				status: 500,
				outcome: "retrying",
			});
			const wait = Date.parse(attempt.nextAttemptAt ?? "") - now;
			expect(wait).toBeGreaterThanOrEqual(step);
			expect(wait).toBeLessThanOrEqual(step * 1.2);
			// Not a moment before it is due.
			await deliverAt(webhook.id, now + wait - 1);
			expect((await lastAttempt(webhook.id)).attempt).toBe(index + 1);
			now += wait;
			await deliverAt(webhook.id, now);
		}
		expect(now - later).toBeGreaterThan(25 * hour);
		expect(await lastAttempt(webhook.id)).toMatchObject({
			attempt: 9,
			outcome: "exhausted",
			nextAttemptAt: null,
		});
		expect(await webhookState(webhook.id)).toMatchObject({
			disabled: true,
			failures: 9,
			lastStatus: 500,
		});
		const [disabled] = await (
			await anonymous(`/events?subject=${encodeURIComponent(`/webhooks/${webhook.id}`)}`)
		).json<{ type: string; data: unknown }[]>();
		// A webhook watching for it is told, whole numbers written as `9`, never `9.0`.
		await sweepAt(now);
		await deliverAt(watcher.id, now);
		const [told] = receivers.received(watcher.url);
		expect(told.body).toContain('"failures":9,"lastStatus":500,');
		expect(disabled).toMatchObject({
			type: "webhook.disabled",
			data: { id: webhook.id, disabled: true, failures: 9, lastStatus: 500 },
		});
		// The feed is public: it shows the webhook's state, never its URL (often a capability) or its secret.
		expect(Object.keys(disabled.data as object).sort()).toEqual([
			"disabled",
			"failures",
			"id",
			"lastAttemptAt",
			"lastStatus",
		]);
		expect(JSON.stringify(disabled)).not.toContain(webhook.url);
		await deliverAt(webhook.id, now + 10 * hour);
		expect(receivers.received(webhook.url)).toHaveLength(9);
	});

	it("keep an endpoint enabled while it succeeds now and then, however long it fails in between", async () => {
		const receivers = mockReceivers();
		const webhook = await createWebhook(["category.created"]);
		let status = 500;
		receivers.answer(webhook.url, () => new Response(null, { status }));
		await categoryEvent();
		await sweepAt(later);
		await deliverAt(webhook.id, later);
		status = 204;
		await categoryEvent();
		await sweepAt(later + 20 * hour);
		await deliverAt(webhook.id, later + 20 * hour);
		status = 500;
		await categoryEvent();
		await sweepAt(later + 30 * hour);
		await deliverAt(webhook.id, later + 30 * hour);
		expect(await webhookState(webhook.id)).toMatchObject({ disabled: false, lastStatus: 500 });
	});

	it("honour a longer Retry-After on 429 and 503, as seconds or a date, and ignore it on other statuses", async () => {
		const cases: [number, string, number][] = [
			[503, "120", 120 * second],
			[429, new Date(later + 10 * minute).toUTCString(), 10 * minute],
			[500, "120", 5 * second],
			[503, "1", 5 * second],
		];
		for (const [status, retryAfter, wait] of cases) {
			const { webhook } = await attemptedOnce(failing(status, { "retry-after": retryAfter }));
			const attempt = await lastAttempt(webhook.id);
			const next = Date.parse(attempt.nextAttemptAt ?? "");
			// Counted from the end of the attempt, as its log records it (to the millisecond either way): however
			// long the run took to reach it on a busy machine.
			const ended = Date.parse(attempt.attemptedAt) + attempt.durationMs;
			expect(next - later).toBeGreaterThanOrEqual(wait);
			expect(next - ended).toBeGreaterThanOrEqual(wait - 1);
			expect(next - ended).toBeLessThanOrEqual(Math.max(wait, 6 * second) + 1);
			await api(`/webhooks/${webhook.id}`, { method: "DELETE" });
		}
	});

	it("count a redirect as a failure and do not follow it", async () => {
		const { receivers, webhook } = await attemptedOnce(
			failing(302, { location: "https://elsewhere.example.com/" }),
		);
		expect(await lastAttempt(webhook.id)).toMatchObject({
			status: 302,
			outcome: "retrying",
			error: expect.stringContaining("redirects are not followed"),
		});
		expect(receivers.fetch).toHaveBeenCalledTimes(1);
	});

	it("record no answer as status 0", async () => {
		const { webhook } = await attemptedOnce(() => {
			throw new TypeError("connection refused");
		});
		expect(await lastAttempt(webhook.id)).toMatchObject({
			status: 0,
			outcome: "retrying",
			error: "no answer: connection refused",
		});
	});
});

describe("410 Gone and re-enabling", () => {
	it("disables the endpoint at once, records webhook.disabled, and a re-enabled endpoint gets what was waiting", async () => {
		let status = 410;
		const { receivers, webhook, eventId } = await attemptedOnce(
			() => new Response(null, { status }),
		);
		expect(await lastAttempt(webhook.id)).toMatchObject({
			status: 410,
			outcome: "disabled",
			// It waits for the webhook to be enabled again: no next attempt is promised.
			nextAttemptAt: null,
		});
		expect(await webhookState(webhook.id)).toMatchObject({ disabled: true });
		// The flag is part of the webhook: a client's cached copy is stale.
		const fresh = await api(`/webhooks/${webhook.id}`, { headers: { "if-none-match": '"1"' } });
		expect(fresh.status).toBe(200);
		expect(fresh.headers.get("etag")).not.toBe('"1"');
		expect(await newestEvent(`/webhooks/${webhook.id}`)).toBeGreaterThan(eventId);
		// Disabled: nothing more is attempted; a new event is held, and the attempt log says so.
		const { eventId: heldId } = await categoryEvent();
		await sweepAt(later + hour);
		await deliverAt(webhook.id, later + hour);
		expect(receivers.received(webhook.url)).toHaveLength(1);
		expect(await lastAttempt(webhook.id)).toMatchObject({
			eventId: heldId,
			attempt: 0,
			outcome: "held",
			nextAttemptAt: null,
		});

		status = 204;
		const enabled = await laterApp.send("PATCH", `/webhooks/${webhook.id}`, { disabled: false });
		expect(await enabled.json()).toMatchObject({ disabled: false });
		await deliverAt(webhook.id, later + 2 * hour);
		const attempts = await attemptsOf(webhook.id);
		expect(attempts.find((attempt) => attempt.eventId === eventId)).toMatchObject({
			attempt: 2,
			outcome: "delivered",
		});
		expect(attempts.find((attempt) => attempt.eventId === heldId)).toMatchObject({
			attempt: 1,
			outcome: "delivered",
		});
	});

	it("forgets what it held for a webhook disabled longer than the feed keeps events", async () => {
		const receivers = mockReceivers();
		const webhook = await createWebhook(["category.created"]);
		await laterApp.send("PATCH", `/webhooks/${webhook.id}`, { disabled: true });
		const { eventId: old } = await categoryEvent();
		await sweepAt(later);
		const month = 31 * 24 * hour;
		const { eventId: recent } = await categoryEvent();
		await sweepAt(later + month);
		await testApp({ now: later + month }).send("PATCH", `/webhooks/${webhook.id}`, {
			disabled: false,
		});
		await deliverAt(webhook.id, later + month);
		expect(receivers.ids(webhook.url)).toEqual([`evt_${recent}`]);
		expect(old).toBeLessThan(recent);
	});

	it("nudges the queue when it records webhook.disabled, so subscribers hear of it as fast as of a write", async () => {
		const receivers = mockReceivers();
		const webhook = await createWebhook(["category.created"]);
		receivers.answer(webhook.url, () => new Response(null, { status: 410 }));
		await categoryEvent();
		await sweepAt(later);
		// The writes' own nudges (in waitUntil) are sent by now.
		await new Promise((settled) => setTimeout(settled, 50));
		const nudged = vi.spyOn(env.WEBHOOK_QUEUE, "send");
		await deliverAt(webhook.id, later);
		expect(await webhookState(webhook.id)).toMatchObject({ disabled: true });
		expect(nudged).toHaveBeenCalledWith({ kind: "sweep" });
	});

	it("pauses the endpoint while updateWebhook says disabled: true", async () => {
		const receivers = mockReceivers();
		const webhook = await createWebhook(["category.created"]);
		await categoryEvent();
		await sweepAt(later);
		await laterApp.send("PATCH", `/webhooks/${webhook.id}`, { disabled: true });
		await deliverAt(webhook.id, later);
		expect(receivers.received(webhook.url)).toHaveLength(0);
	});
});

describe("each attempt's own time", () => {
	it("signs and logs each attempt with its own time, so a delivery behind a slow receiver is not stale", async () => {
		const receivers = mockReceivers();
		const webhook = await createWebhook(["category.created"]);
		receivers.answer(webhook.url, async () => {
			await new Promise((answered) => setTimeout(answered, 1_100));
			return new Response(null, { status: 204 });
		});
		// One more event than the attempts a run makes at once: the last waits for a slow answer.
		for (let event = 0; event < 21; event++) await categoryEvent();
		await sweepAt(later);
		await deliverAt(webhook.id, later);
		const stamps = receivers
			.received(webhook.url)
			.map((request) => Number(request.headers["webhook-timestamp"]));
		expect(stamps).toHaveLength(21);
		expect(Math.min(...stamps)).toBe(later / 1000);
		expect(Math.max(...stamps)).toBeGreaterThanOrEqual(later / 1000 + 1);
		const logged = (await attemptsOf(webhook.id)).map((attempt) => Date.parse(attempt.attemptedAt));
		expect(Math.max(...logged) - Math.min(...logged)).toBeGreaterThanOrEqual(1_000);
	});

	it("starts no delivery once disabled: true has answered, even in a run already going", async () => {
		const receivers = mockReceivers();
		const webhook = await createWebhook(["category.created"]);
		let disabled: Promise<Response> | undefined;
		receivers.answer(webhook.url, async () => {
			disabled ??= laterApp.send("PATCH", `/webhooks/${webhook.id}`, { disabled: true });
			await disabled;
			return new Response(null, { status: 204 });
		});
		for (let event = 0; event < 25; event++) await categoryEvent();
		await sweepAt(later);
		await deliverAt(webhook.id, later);
		expect((await disabled)?.status).toBe(200);
		// Those already under way when it answered finish; none starts after.
		expect(receivers.received(webhook.url).length).toBeLessThanOrEqual(20);
	});
});

describe("an endpoint whose Durable Object fails", () => {
	it("holds back no other endpoint, and gets every event it missed once it answers again", async () => {
		const receivers = mockReceivers();
		const broken = await createWebhook(["category.created"]);
		const healthy = await createWebhook(["category.created"]);
		// More than a round of the sweep: the endpoint that fails must not stop the rounds after the first.
		for (let event = 0; event < 120; event++) await categoryEvent();
		const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
		const reset = async () => {
			throw new Error("Durable Object reset because its code was updated.");
		};
		// The real namespace, but the broken webhook's object fails every call.
		const failing = {
			...env,
			WEBHOOK_ENDPOINT: {
				getByName: (name: string) =>
					name === String(broken.id)
						? { handOff: reset, replay: reset }
						: env.WEBHOOK_ENDPOINT.getByName(name),
			} as unknown as Env["WEBHOOK_ENDPOINT"],
		};
		await sweep(failing, later);
		await deliverAt(healthy.id, later);
		await deliverAt(healthy.id, later + second);
		expect(new Set(receivers.ids(healthy.url)).size).toBe(120);
		expect(receivers.received(broken.url)).toEqual([]);
		expect(warn).toHaveBeenCalledWith(expect.stringContaining('"part":"durable-object"'));
		// Its object answers again: the next sweep sends it everything it missed.
		await sweepAt(later + minute);
		for (let run = 0; run < 3; run++) {
			await deliverAt(broken.id, later + minute + run * second);
		}
		expect(new Set(receivers.ids(broken.url)).size).toBe(120);
	}, 30_000); // 120 events, two endpoints, three sweeps: seconds on a loaded machine
});

describe("isolation", () => {
	it("delivers to a healthy endpoint while another hangs", async () => {
		const receivers = mockReceivers();
		const hung = await createWebhook(["category.created"]);
		const healthy = await createWebhook(["category.created"]);
		let released = false;
		// Polls rather than waits on a promise: the endpoint's I/O cannot be resolved from the test's context.
		receivers.answer(hung.url, async () => {
			while (!released) await new Promise((wake) => setTimeout(wake, 10));
			return new Response(null, { status: 204 });
		});
		const { eventId } = await categoryEvent();
		await sweepAt(later);
		let hungDone = false;
		const hanging = deliverAt(hung.id, later).then(() => {
			hungDone = true;
		});
		await deliverAt(healthy.id, later);
		expect(await lastAttempt(healthy.id)).toMatchObject({ eventId, outcome: "delivered" });
		await vi.waitFor(() => expect(receivers.received(hung.url)).toHaveLength(1));
		expect(hungDone).toBe(false);
		released = true;
		await hanging;
		expect(await lastAttempt(hung.id)).toMatchObject({ outcome: "delivered" });
	});
});

describe("replay", () => {
	it("re-sends the events the webhook receives after an id, each from its first attempt", async () => {
		const receivers = mockReceivers();
		const webhook = await createWebhook(["category.created"]);
		const first = await categoryEvent();
		const second = await categoryEvent();
		await createWebhook(["pet.created"]);
		await sweepAt(later);
		await deliverAt(webhook.id, later);
		const replayed = await laterApp.send("POST", `/webhooks/${webhook.id}/replay`, {
			after: first.eventId,
		});
		expect(replayed.status).toBe(202);
		await deliverAt(webhook.id, later + hour);
		const ids = receivers.ids(webhook.url);
		expect(ids.filter((id) => id === `evt_${first.eventId}`)).toHaveLength(1);
		expect(ids.filter((id) => id === `evt_${second.eventId}`)).toHaveLength(2);
		expect(await lastAttempt(webhook.id)).toMatchObject({
			eventId: second.eventId,
			attempt: 1,
			outcome: "delivered",
		});
	});
});

describe("rotating the secret", () => {
	it("signs with both secrets for 24 hours, each verified by the standardwebhooks library, then with the new one alone", async () => {
		const receivers = mockReceivers();
		const webhook = await createWebhook(["category.created"]);
		const rotated = await laterApp.api(`/webhooks/${webhook.id}/rotate-secret`, { method: "POST" });
		const { secret } = await rotated.json<{ secret: string }>();
		await categoryEvent();
		await sweepAt(later + hour);
		await deliverAt(webhook.id, later + hour);
		const [during] = receivers.received(webhook.url);
		const signatures = during.headers["webhook-signature"].split(" ");
		expect(signatures).toHaveLength(2);
		for (const key of [secret, webhook.secret]) {
			expect(verify(key, during, later + hour)).toHaveProperty("id");
		}
		await categoryEvent();
		await sweepAt(later + 25 * hour);
		await deliverAt(webhook.id, later + 25 * hour);
		const after = receivers.received(webhook.url)[1];
		expect(after.headers["webhook-signature"].split(" ")).toHaveLength(1);
		expect(verify(secret, after, later + 25 * hour)).toHaveProperty("id");
		expect(() => verify(webhook.secret, after, later + 25 * hour)).toThrow();
	});
});

describe("rotating the secret twice within 24 hours", () => {
	it("keeps each rotated-out secret signing until its own 24 hours expire, one signature per secret, newest first", async () => {
		const receivers = mockReceivers();
		const webhook = await createWebhook(["category.created"]);
		const rotate = async (at: number) => {
			const rotated = await testApp({ now: at }).api(`/webhooks/${webhook.id}/rotate-secret`, {
				method: "POST",
			});
			expect(rotated.status).toBe(200);
			return (await rotated.json<{ secret: string }>()).secret;
		};
		const second = await rotate(later);
		const third = await rotate(later + hour);
		const deliveredAt = async (at: number) => {
			await categoryEvent();
			await sweepAt(at);
			await deliverAt(webhook.id, at);
			const request = receivers.received(webhook.url).at(-1);
			if (!request) throw new Error(`nothing delivered at ${at}`);
			return request;
		};
		/** Which of the secrets signed `request`, in the order of its signatures. */
		const signers = (request: Received, at: number, secrets: string[]) =>
			request.headers["webhook-signature"].split(" ").map((signature) =>
				secrets.findIndex((secret) => {
					try {
						verify(
							secret,
							{ ...request, headers: { ...request.headers, "webhook-signature": signature } },
							at,
						);
						return true;
					} catch {
						return false;
					}
				}),
			);
		const secrets = [third, second, webhook.secret];
		const during = later + 2 * hour;
		expect(signers(await deliveredAt(during), during, secrets)).toEqual([0, 1, 2]);
		// The first secret's 24 hours end a day after the first rotation; the second's, an hour later.
		const firstExpired = later + 24 * hour + minute;
		expect(signers(await deliveredAt(firstExpired), firstExpired, secrets)).toEqual([0, 1]);
		const bothExpired = later + 25 * hour + minute;
		expect(signers(await deliveredAt(bothExpired), bothExpired, secrets)).toEqual([0]);
	});
});

describe("a deleted webhook", () => {
	it("stays gone: a sweep that read it before its deletion hands its endpoint nothing to send", async () => {
		const receivers = mockReceivers();
		const webhook = await createWebhook(["category.created"]);
		const { config } = await getEndpoint(drizzle(env.DB), webhook.id);
		expect((await api(`/webhooks/${webhook.id}`, { method: "DELETE" })).status).toBe(204);
		const { eventId } = await categoryEvent();
		await endpointOf(env, webhook.id).handOff(config, [{ eventId, body: "{}" }], later);
		await deliverAt(webhook.id, later);
		expect(receivers.received(webhook.url)).toEqual([]);
	});
});

describe("a disabling that D1 could not record", () => {
	it("keeps an alarm until it is recorded, whatever the endpoint is handed meanwhile", async () => {
		const webhook = await createWebhook(["category.created"]);
		const { config } = await getEndpoint(drizzle(env.DB), webhook.id);
		const endpoint = endpointOf(env, webhook.id);
		await endpoint.handOff(config, [], later);
		// As the endpoint leaves it when the D1 batch that records a disabling fails.
		await runInDurableObject(endpoint, (_, state) => {
			state.storage.sql.exec("UPDATE endpoint SET disabled = 1, disable_recorded = 0");
		});
		await endpoint.handOff(config, [], later);
		const alarm = await runInDurableObject(endpoint, (_, state) => state.storage.getAlarm());
		expect(alarm).toBeGreaterThan(later);
		await deliverAt(webhook.id, alarm ?? later);
		expect(await webhookState(webhook.id)).toMatchObject({ disabled: true });
		expect(await newestEvent(`/webhooks/${webhook.id}`)).toBeGreaterThan(0);
	});
});
