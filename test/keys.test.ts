import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isKeySecret, keyHash } from "../src/models/key-secret";
import {
	api,
	collectPages,
	expectError,
	inOneRateWindow,
	send,
	servedDocument,
	stockedPet,
	testApp,
	testNow,
	uniqueName,
} from "./support/api";
import { watchedD1 } from "./support/d1";
import { receiverUrl } from "./support/webhooks";

type Key = { id: number; name: string; scopes: string[]; start: string; secret: string };

const second = 1000;
const minute = 60 * second;

/** A new key with `scopes`, made by the root token (or `by`, a key's secret). */
const makeKey = async (scopes: string[], more: Record<string, unknown> = {}, by?: string) => {
	const response = await testApp({ credential: by }).send("POST", "/keys", {
		name: uniqueName("Key"),
		scopes,
		...more,
	});
	expect(response.status).toBe(201);
	return response.json<Key>();
};

/** The app as a client holding `secret`, at `now`. */
const as = (secret: string, now = testNow) => testApp({ credential: secret, now });

const newCategory = (secret: string, now = testNow) =>
	as(secret, now).send("POST", "/categories", { name: uniqueName("Keyed") });

/** A category made by the client holding `secret`, on a write budget of two a minute. */
const newCategoryOnATinyBudget = (secret: string) =>
	testApp({ credential: secret, bindings: { WRITE_LIMITER: env.TINY_LIMITER } }).send(
		"POST",
		"/categories",
		{ name: uniqueName("Budget") },
	);

const challengeOf = (response: Response) => response.headers.get("www-authenticate");

afterEach(() => {
	vi.restoreAllMocks();
});

describe("an API key", () => {
	it("is pst_, 32 base62 characters and their CRC32, answered once and stored as its SHA-256 only", async () => {
		const response = await send("POST", "/keys", { name: "Shop front", scopes: ["pets:write"] });
		expect(response.status).toBe(201);
		expect(response.headers.get("cache-control")).toBe("no-store");
		const key = await response.json<Key>();
		expect(key.secret).toMatch(/^pst_[0-9A-Za-z]{38}$/);
		expect(isKeySecret(key.secret)).toBe(true);
		expect(key).toMatchObject({
			name: "Shop front",
			scopes: ["pets:write"],
			start: key.secret.slice(0, 8),
		});
		expect(response.headers.get("location")).toBe(`/keys/${key.id}`);
		const read = await (await api(`/keys/${key.id}`)).json();
		expect(read).toEqual({
			id: key.id,
			name: "Shop front",
			scopes: ["pets:write"],
			start: key.start,
			createdAt: new Date(testNow).toISOString(),
		});
		const row = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?").bind(key.id).first();
		expect(JSON.stringify(row)).not.toContain(key.secret.slice(8));
		expect(row?.hash).toBe(await keyHash(key.secret));
	});

	it("is documented by an example whose checksum holds; one changed character breaks it", async () => {
		const { components } = await servedDocument();
		const { secret } = components.schemas.ApiKeyWithSecret.example as { secret: string };
		expect(isKeySecret(secret)).toBe(true);
		const changed = `${secret.slice(0, 10)}${secret[10] === "a" ? "b" : "a"}${secret.slice(11)}`;
		expect(isKeySecret(changed)).toBe(false);
	});

	it("with a wrong checksum is refused as invalid_token before any database read", async () => {
		const { secret } = await makeKey(["pets:write"]);
		const wrong = `${secret.slice(0, -1)}${secret.endsWith("0") ? "1" : "0"}`;
		const d1 = watchedD1(env.DB);
		const response = await testApp({ credential: wrong, bindings: { DB: d1.binding } }).send(
			"POST",
			"/categories",
			{ name: uniqueName("Refused") },
		);
		await expectError(response, 401, "unauthorized");
		expect(challengeOf(response)).toBe('Bearer realm="petstore", error="invalid_token"');
		expect(d1.calls()).toBe(0);
	});

	it("authorises what its scopes allow, and answers 403 insufficient_scope naming the one it lacks", async () => {
		const { secret } = await makeKey(["orders:write"]);
		const pet = await stockedPet(5);
		const placed = await as(secret).send("POST", "/store/orders", { petId: pet.id, quantity: 1 });
		expect(placed.status).toBe(201);
		const refused = await newCategory(secret);
		await expectError(refused, 403, "forbidden");
		expect(challengeOf(refused)).toBe(
			'Bearer realm="petstore", error="insufficient_scope", scope="pets:write"',
		);
		await expectError(await as(secret).api("/keys"), 403, "forbidden");
	});

	it("is refused in a query string, and nothing is stored", async () => {
		const { secret } = await makeKey(["pets:write"]);
		const before = await collectPages<{ id: number }>("/categories?limit=100");
		const response = await testApp().request(`/categories?access_token=${secret}`, {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify({ name: uniqueName("Query") }),
		});
		expect(response.status).toBe(401);
		const refused = await testApp().request(`/pets?access_token=${secret}`);
		await expectError(refused, 400, "validation_error");
		expect(await collectPages<{ id: number }>("/categories?limit=100")).toEqual(before);
	});
});

describe("making and changing keys", () => {
	it("never makes or widens a key beyond the maker's own scopes", async () => {
		const manager = await makeKey(["keys:manage", "orders:write"]);
		const wider = await testApp({ credential: manager.secret }).send("POST", "/keys", {
			name: uniqueName("Wider"),
			scopes: ["orders:write", "pets:write"],
		});
		await expectError(wider, 403, "forbidden");
		expect(challengeOf(wider)).toContain('scope="pets:write"');
		const narrow = await makeKey(["orders:write"], {}, manager.secret);
		const widened = await as(manager.secret).send("PATCH", `/keys/${narrow.id}`, {
			scopes: ["orders:write", "inventory:write"],
		});
		await expectError(widened, 403, "forbidden");
		const admin = await makeKey(["pets:write"]);
		for (const [method, path, body] of [
			["PATCH", `/keys/${admin.id}`, { name: "Mine now" }],
			["POST", `/keys/${admin.id}/roll`, {}],
		] as const) {
			const response = await as(manager.secret).send(method, path, body);
			await expectError(response, 403, "forbidden");
			expect(challengeOf(response)).toContain('scope="pets:write"');
		}
		expect((await newCategory(admin.secret)).status).toBe(201);
	});

	it("never makes one that outlives the maker", async () => {
		const expiresAt = new Date(testNow + 60 * minute).toISOString();
		const manager = await makeKey(["keys:manage", "orders:write"], { expiresAt });
		for (const more of [{}, { expiresAt: new Date(testNow + 61 * minute).toISOString() }]) {
			const response = await as(manager.secret).send("POST", "/keys", {
				name: uniqueName("Outliving"),
				scopes: ["orders:write"],
				...more,
			});
			await expectError(response, 403, "forbidden");
		}
		const sooner = new Date(testNow + 30 * minute).toISOString();
		expect((await makeKey(["orders:write"], { expiresAt: sooner }, manager.secret)).scopes).toEqual(
			["orders:write"],
		);
	});

	it.each([
		["an unknown scope", { scopes: ["pets:read"] }, "body.scopes.0"],
		["no scope", { scopes: [] }, "body.scopes"],
		["a repeated scope", { scopes: ["pets:write", "pets:write"] }, "body.scopes"],
		["an expiry that has passed", { expiresAt: "2026-12-31T23:59:59Z" }, "body.expiresAt"],
		["a name with a control character", { name: "Shop\u0007" }, "body.name"],
		["an unknown field", { owner: 1 }, "body.owner"],
	])("refuses %s with a validation_error, and makes nothing", async (_, body, path) => {
		const before = (await collectPages<{ id: number }>("/keys?limit=100")).items.length;
		const response = await send("POST", "/keys", {
			name: uniqueName("Hostile"),
			scopes: ["pets:write"],
			...body,
		});
		const { details = [] } = await expectError(response, 400, "validation_error");
		expect(details.map((detail) => detail.path)).toContain(path);
		expect((await collectPages<{ id: number }>("/keys?limit=100")).items.length).toBe(before);
	});

	it("changes a key's name, scopes and expiry under If-Match, at once in this isolate", async () => {
		const key = await makeKey(["orders:write"]);
		expect((await newCategory(key.secret)).status).toBe(403);
		const current = await api(`/keys/${key.id}`);
		const etag = current.headers.get("etag") ?? "";
		const stale = await send("PATCH", `/keys/${key.id}`, { name: "Stale" }, { "if-match": '"0"' });
		await expectError(stale, 412, "precondition_failed");
		const changed = await send(
			"PATCH",
			`/keys/${key.id}`,
			{ name: "Both", scopes: ["orders:write", "pets:write"] },
			{ "if-match": etag },
		);
		expect(await changed.json()).toMatchObject({
			name: "Both",
			scopes: ["orders:write", "pets:write"],
		});
		expect((await newCategory(key.secret)).status).toBe(201);
	});
});

describe("a credential that expires, managing keys", () => {
	/** When the manager below stops working: an hour after the tests' clock. */
	const managerExpiry = testNow + 60 * minute;
	const at = (time: number) => new Date(time).toISOString();
	const expiringManager = () =>
		makeKey(["keys:manage", "pets:write"], { expiresAt: at(managerExpiry) });
	/** Keys that outlive the manager: one that never expires, one a minute after it. */
	const outliving = () =>
		Promise.all([
			makeKey(["pets:write"]),
			makeKey(["pets:write"], { expiresAt: at(managerExpiry + minute) }),
		]);
	const etagOf = async (id: number) => (await api(`/keys/${id}`)).headers.get("etag");

	it("rolls no key that outlives it: 403, and the old secret keeps working as before", async () => {
		const manager = await expiringManager();
		for (const key of await outliving()) {
			const etag = await etagOf(key.id);
			const rolled = await as(manager.secret).send("POST", `/keys/${key.id}/roll`, {});
			const { message } = await expectError(rolled, 403, "forbidden");
			expect(message).toContain(at(managerExpiry));
			expect(await etagOf(key.id)).toBe(etag);
			// Past the hour a rolled-out secret keeps working: the old secret was never rolled out.
			expect((await newCategory(key.secret, testNow + 60 * minute)).status).toBe(201);
		}
	});

	it("renames no key that outlives it: 403, and its name stays", async () => {
		const manager = await expiringManager();
		for (const key of await outliving()) {
			const renamed = await as(manager.secret).send("PATCH", `/keys/${key.id}`, { name: "Mine" });
			await expectError(renamed, 403, "forbidden");
			expect(await (await api(`/keys/${key.id}`)).json()).toMatchObject({ name: key.name });
		}
	});

	it("never lifts or extends its own expiry, nor through a key that never expires; it may shorten it", async () => {
		const manager = await expiringManager();
		const own = `/keys/${manager.id}`;
		for (const expiresAt of [null, at(managerExpiry + 1)]) {
			const lifted = await as(manager.secret).send("PATCH", own, { expiresAt });
			await expectError(lifted, 403, "forbidden");
		}
		// The way round: roll a never-expiring admin key and lift its own expiry with that key's secret.
		const permanentAdmin = await makeKey(["keys:manage"]);
		const rolled = await as(manager.secret).send("POST", `/keys/${permanentAdmin.id}/roll`, {});
		await expectError(rolled, 403, "forbidden");
		const renamed = await as(manager.secret).send("PATCH", own, { name: "Still mine" });
		expect(renamed.status).toBe(200);
		const sooner = at(testNow + 30 * minute);
		const shortened = await as(manager.secret).send("PATCH", own, { expiresAt: sooner });
		expect(shortened.status).toBe(200);
		expect(await shortened.json()).toMatchObject({ expiresAt: sooner });
		const expired = await newCategory(manager.secret, testNow + 30 * minute);
		await expectError(expired, 401, "unauthorized");
	});

	it("changes and rolls a key expiring no later than it, and none expiring a millisecond after", async () => {
		const manager = await expiringManager();
		for (const [expiry, status] of [
			[testNow + 30 * minute, 200],
			[managerExpiry, 200],
			[managerExpiry + 1, 403],
		] as const) {
			const key = await makeKey(["pets:write"], { expiresAt: at(expiry) });
			const renamed = await as(manager.secret).send("PATCH", `/keys/${key.id}`, {
				name: uniqueName("Renamed"),
			});
			const rolled = await as(manager.secret).send("POST", `/keys/${key.id}/roll`, {});
			expect([renamed.status, rolled.status]).toEqual([status, status]);
		}
	});

	it("revokes a key that never expires, though it may not roll it", async () => {
		const manager = await expiringManager();
		const permanent = await makeKey(["pets:write"]);
		const rolled = await as(manager.secret).send("POST", `/keys/${permanent.id}/roll`, {});
		await expectError(rolled, 403, "forbidden");
		const revoked = await as(manager.secret).api(`/keys/${permanent.id}`, { method: "DELETE" });
		expect(revoked.status).toBe(204);
		await expectError(await newCategory(permanent.secret), 401, "unauthorized");
	});
});

describe("a key's lifetime", () => {
	it("stops at its expiry", async () => {
		const expiresAt = testNow + 5 * minute;
		const key = await makeKey(["pets:write"], { expiresAt: new Date(expiresAt).toISOString() });
		expect((await newCategory(key.secret, expiresAt - 1)).status).toBe(201);
		const expired = await newCategory(key.secret, expiresAt);
		await expectError(expired, 401, "unauthorized");
		expect(challengeOf(expired)).toContain('error="invalid_token"');
	});

	it("stops at once where it is revoked, and within 10 seconds in an isolate that had read it", async () => {
		const revoked = await makeKey(["pets:write"]);
		expect((await newCategory(revoked.secret)).status).toBe(201);
		expect((await api(`/keys/${revoked.id}`, { method: "DELETE" })).status).toBe(204);
		await expectError(await newCategory(revoked.secret), 401, "unauthorized");
		await expectError(await api(`/keys/${revoked.id}`), 404, "not_found");

		// Revoked by another isolate: this one had read the key, and trusts what it read for at most 10 seconds.
		const elsewhere = await makeKey(["pets:write"]);
		expect((await newCategory(elsewhere.secret)).status).toBe(201);
		await env.DB.prepare("DELETE FROM api_keys WHERE id = ?").bind(elsewhere.id).run();
		await expectError(
			await newCategory(elsewhere.secret, testNow + 10 * second),
			401,
			"unauthorized",
		);
	});

	it("rolls: a new secret, the previous one working for previousValidFor seconds, the rest kept", async () => {
		const key = await makeKey(["orders:write", "pets:write"]);
		const pet = await stockedPet(5);
		const order = { petId: pet.id, quantity: 1 };
		const idempotencyKey = { "idempotency-key": crypto.randomUUID() };
		const first = await as(key.secret).send("POST", "/store/orders", order, idempotencyKey);
		expect(first.status).toBe(201);
		const rolled = await send("POST", `/keys/${key.id}/roll`, { previousValidFor: 60 });
		expect(rolled.status).toBe(200);
		expect(rolled.headers.get("cache-control")).toBe("no-store");
		const renewed = await rolled.json<Key>();
		expect(renewed).toMatchObject({ id: key.id, scopes: key.scopes, name: key.name });
		expect(renewed.secret).not.toBe(key.secret);
		expect(renewed.start).toBe(renewed.secret.slice(0, 8));
		// The retry of a request made before the roll, with the new secret: the same client, so a replay.
		const retry = await as(renewed.secret).send("POST", "/store/orders", order, idempotencyKey);
		expect(retry.headers.get("idempotency-replayed")).toBe("true");
		expect(await retry.json()).toEqual(await first.json());
		expect((await newCategory(key.secret, testNow + 59 * second)).status).toBe(201);
		await expectError(await newCategory(key.secret, testNow + 60 * second), 401, "unauthorized");
		expect((await newCategory(renewed.secret, testNow + 60 * second)).status).toBe(201);
	});

	it("keeps its expiry, its write budget and its webhooks across a roll", async () => {
		const expiresAt = new Date(testNow + 60 * minute).toISOString();
		const key = await makeKey(["pets:write", "webhooks:manage"], { expiresAt });
		const hook = await as(key.secret).send("POST", "/webhooks", {
			url: receiverUrl(),
			events: ["pet.created"],
		});
		expect(hook.status).toBe(201);
		const { id: webhookId } = await hook.json<{ id: number }>();
		await inOneRateWindow();
		expect((await newCategoryOnATinyBudget(key.secret)).status).toBe(201);
		const renewed = await (await send("POST", `/keys/${key.id}/roll`, {})).json<Key>();
		expect(renewed).toMatchObject({ id: key.id, expiresAt });
		// The budget is the key's, not its secret's: the new secret spends what the old one left.
		expect((await newCategoryOnATinyBudget(renewed.secret)).status).toBe(201);
		await expectError(await newCategoryOnATinyBudget(renewed.secret), 429, "rate_limited");
		expect((await as(renewed.secret).api(`/webhooks/${webhookId}`)).status).toBe(200);
	});

	it("refuses a revoked key's secret and a rolled-out one as it refuses a wrong one: invalid_token", async () => {
		const wrong = await newCategory(`pst_${"0".repeat(38)}`);
		await expectError(wrong, 401, "unauthorized");
		expect(challengeOf(wrong)).toBe('Bearer realm="petstore", error="invalid_token"');
		const revoked = await makeKey(["pets:write"]);
		expect((await api(`/keys/${revoked.id}`, { method: "DELETE" })).status).toBe(204);
		const afterRevocation = await newCategory(revoked.secret);
		await expectError(afterRevocation, 401, "unauthorized");
		expect(challengeOf(afterRevocation)).toBe(challengeOf(wrong));
		const rolled = await makeKey(["pets:write"]);
		expect((await send("POST", `/keys/${rolled.id}/roll`, { previousValidFor: 0 })).status).toBe(
			200,
		);
		const rolledOut = await newCategory(rolled.secret);
		await expectError(rolledOut, 401, "unauthorized");
		expect(challengeOf(rolledOut)).toBe(challengeOf(wrong));
	});

	it("takes its previous secret's window from the body, 3600 seconds by default", async () => {
		const key = await makeKey(["pets:write"]);
		const rolled = await send("POST", `/keys/${key.id}/roll`, {});
		expect(rolled.status).toBe(200);
		expect((await newCategory(key.secret, testNow + 3599 * second)).status).toBe(201);
		await expectError(await newCategory(key.secret, testNow + 3600 * second), 401, "unauthorized");
		await expectError(
			await send("POST", `/keys/${key.id}/roll`, { previousValidFor: 86_401 }),
			400,
			"validation_error",
		);
	});

	it("keeps lastUsedAt at most once a minute, after the response", async () => {
		const key = await makeKey(["pets:write"]);
		expect(await (await api(`/keys/${key.id}`)).json()).not.toHaveProperty("lastUsedAt");
		const lastUsed = async () =>
			(await (await api(`/keys/${key.id}`)).json<{ lastUsedAt?: string }>()).lastUsedAt;
		await newCategory(key.secret, testNow);
		expect(await lastUsed()).toBe(new Date(testNow).toISOString());
		await newCategory(key.secret, testNow + 30 * second);
		expect(await lastUsed()).toBe(new Date(testNow).toISOString());
		await newCategory(key.secret, testNow + 61 * second);
		expect(await lastUsed()).toBe(new Date(testNow + 61 * second).toISOString());
	});
});

describe("a key's cost and its traces", () => {
	it("costs a write no D1 round trip once this isolate knows it: its use is recorded apart, at most once a minute", async () => {
		const key = await makeKey(["pets:write"]);
		const watched = async (now: number) => {
			const d1 = watchedD1(env.DB);
			const response = await testApp({
				credential: key.secret,
				now,
				bindings: { DB: d1.binding },
			}).send("POST", "/categories", { name: uniqueName("Counted") });
			expect(response.status).toBe(201);
			return d1.log();
		};
		const first = await watched(testNow);
		expect(first.filter((call) => call.method === "batch")).toHaveLength(1);
		// The key read, and its use recorded, each on its own: never in the write's batch.
		const batch = first.find((call) => call.method === "batch");
		expect(batch?.statements.some(({ sql }) => sql.includes("api_keys"))).toBe(false);
		expect(
			first.filter((call) => call.statements.some(({ sql }) => sql.includes("api_keys"))),
		).toHaveLength(2);
		const known = await watched(testNow + 5 * second);
		expect(known).toHaveLength(1);
		expect(known[0].method).toBe("batch");
	});

	it("is named in the log by its id, never by its secret", async () => {
		const key = await makeKey(["pets:write"]);
		const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
		// D1 refuses the record of the key's use, which runs after the response.
		const refusingUse = new Proxy(env.DB, {
			get(target, name) {
				if (name !== "prepare") return Reflect.get(target, name, target).bind(target);
				return (query: string) => {
					if (!/^update "api_keys"/i.test(query)) return target.prepare(query);
					const failing = {
						bind: () => failing,
						run: () => Promise.reject(new Error("D1_ERROR: Network connection lost.")),
					};
					return failing;
				};
			},
		});
		const response = await testApp({ credential: key.secret, bindings: { DB: refusingUse } }).send(
			"POST",
			"/categories",
			{ name: uniqueName("Logged") },
		);
		expect(response.status).toBe(201);
		const logged = warnings.mock.calls.map(([line]) => String(line));
		expect(logged.some((line) => JSON.parse(line).keyId === key.id)).toBe(true);
		expect(logged.join("\n")).not.toContain(key.secret.slice(4, 12));
	});
});

describe("clients apart", () => {
	it("keep the root token one client across its rotation: a retry with the new root token replays", async () => {
		const [old, renewed] = [`old-root-${crypto.randomUUID()}`, `new-root-${crypto.randomUUID()}`];
		const bindings = { API_TOKEN: `${renewed},${old}` };
		const pet = await stockedPet(5);
		const order = { petId: pet.id, quantity: 1 };
		const retried = { "idempotency-key": crypto.randomUUID() };
		const first = await testApp({ credential: old, bindings }).send(
			"POST",
			"/store/orders",
			order,
			retried,
		);
		expect(first.status).toBe(201);
		const retry = await testApp({ credential: renewed, bindings }).send(
			"POST",
			"/store/orders",
			order,
			retried,
		);
		expect(retry.headers.get("idempotency-replayed")).toBe("true");
		expect(await retry.json()).toEqual(await first.json());
	});

	it("spend their own write budgets", async () => {
		const [one, other] = [await makeKey(["pets:write"]), await makeKey(["pets:write"])];
		await inOneRateWindow();
		expect((await newCategoryOnATinyBudget(one.secret)).status).toBe(201);
		expect((await newCategoryOnATinyBudget(one.secret)).status).toBe(201);
		await expectError(await newCategoryOnATinyBudget(one.secret), 429, "rate_limited");
		expect((await newCategoryOnATinyBudget(other.secret)).status).toBe(201);
	});

	it("have their own Idempotency-Keys: the same key from two clients is two requests", async () => {
		const [one, other] = [await makeKey(["orders:write"]), await makeKey(["orders:write"])];
		const pet = await stockedPet(5);
		const idempotencyKey = { "idempotency-key": "shared-key" };
		const first = await as(one.secret).send(
			"POST",
			"/store/orders",
			{ petId: pet.id, quantity: 1 },
			idempotencyKey,
		);
		const second = await as(other.secret).send(
			"POST",
			"/store/orders",
			{ petId: pet.id, quantity: 2 },
			idempotencyKey,
		);
		expect([first.status, second.status]).toEqual([201, 201]);
		expect(second.headers.get("idempotency-replayed")).toBeNull();
		expect((await second.json<{ quantity: number }>()).quantity).toBe(2);
	});
});

describe("listing keys", () => {
	it("shows a client with keys:manage every key, not only those it made", async () => {
		const byRoot = await makeKey(["orders:write"]);
		const manager = await makeKey(["keys:manage"]);
		const idsOf = async (response: Response) =>
			(await response.json<{ id: number }[]>()).map(({ id }) => id);
		const listed = await idsOf(await as(manager.secret).api("/keys?limit=100"));
		expect(listed).toContain(byRoot.id);
		expect(listed).toEqual(await idsOf(await api("/keys?limit=100")));
		const read = await as(manager.secret).api(`/keys/${byRoot.id}`);
		expect(read.status).toBe(200);
		expect(await read.json()).toMatchObject({ id: byRoot.id, scopes: ["orders:write"] });
	});

	it("holds each secret's digest once: a second key with the same hash is refused by the database", async () => {
		const key = await makeKey(["pets:write"]);
		const duplicate = env.DB.prepare(
			"INSERT INTO api_keys (name, scopes, start, hash, created_at) VALUES ('Copy', '[]', 'pst_copy', ?, ?)",
		).bind(await keyHash(key.secret), new Date(testNow).toISOString());
		await expect(duplicate.run()).rejects.toThrow(/UNIQUE/);
	});

	it("pages through 10,000 keys, each once, in id order", async () => {
		const rows = Array.from({ length: 10_000 }, (_, index) => index);
		for (let start = 0; start < rows.length; start += 500) {
			await env.DB.batch(
				rows
					.slice(start, start + 500)
					.map((index) =>
						env.DB.prepare(
							"INSERT INTO api_keys (name, scopes, start, hash, created_at) VALUES (?, '[\"pets:write\"]', 'pst_bulk', ?, ?)",
						).bind(
							`Bulk ${index}`,
							`bulk-${index}-${crypto.randomUUID()}`,
							new Date(testNow).toISOString(),
						),
					),
			);
		}
		const { items } = await collectPages<{ id: number; name: string }>("/keys?limit=100");
		const ids = items.map((key) => key.id);
		expect(ids.length).toBeGreaterThanOrEqual(10_000);
		expect(ids).toEqual([...ids].sort((a, b) => a - b));
		expect(new Set(ids).size).toBe(ids.length);
		expect(JSON.stringify(items)).not.toContain("bulk-");
	}, 60_000);
});
