import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openSecret, sealSecret } from "../src/webhooks/secret-box";
import { api, expectError, send, testApp } from "./support/api";
import { watchedD1 } from "./support/d1";

const newWebhook = {
	url: "https://shop.example.com/hook",
	events: ["pet.created"],
};

const createWith = (bindings: Partial<Env>) =>
	testApp({ bindings }).send("POST", "/webhooks", newWebhook);

const storedSecret = (id: number) =>
	env.DB.prepare("SELECT secret FROM webhooks WHERE id = ?")
		.bind(id)
		.first<string>("secret");

const webhookCount = () =>
	env.DB.prepare("SELECT count(*) AS n FROM webhooks").first<number>("n");

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
		expect(stored).toMatch(/^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
		expect(stored).not.toContain(created.secret.slice("whsec_".length));
		expect(await openSecret(stored ?? "", env)).toBe(created.secret);
		await api(`/webhooks/${created.id}`, { method: "DELETE" });
	});

	it("seals the same secret differently each time: a fresh IV per secret", async () => {
		const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
		const first = await sealSecret(secret, env);
		const second = await sealSecret(secret, env);
		expect(first).not.toBe(second);
		expect(first.split(".")[1]).not.toBe(second.split(".")[1]);
		expect(await openSecret(second, env)).toBe(secret);
	});

	it("cannot be opened with another key, nor once altered", async () => {
		const sealed = await sealSecret(
			"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
			env,
		);
		await expect(
			openSecret(sealed, {
				WEBHOOK_SECRET_KEY: "another-webhook-secret-key-0123456789",
			}),
		).rejects.toThrow();
		const [version, iv, ciphertext] = sealed.split(".");
		const altered = `${ciphertext[0] === "A" ? "B" : "A"}${ciphertext.slice(1)}`;
		await expect(
			openSecret(`${version}.${iv}.${altered}`, env),
		).rejects.toThrow();
		await expect(
			openSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", env),
		).rejects.toThrow(/not in a known sealed format/);
	});

	it("stores no webhook where no key (or too short a one) is configured: it fails closed", async () => {
		vi.spyOn(console, "error").mockImplementation(() => {});
		const before = await webhookCount();
		for (const key of ["", "too-short"]) {
			await expectError(
				await createWith({ WEBHOOK_SECRET_KEY: key }),
				500,
				"internal_error",
			);
		}
		expect(await webhookCount()).toBe(before);
	});
});

describe("webhook secrets are never logged", () => {
	it("logs a failed insert by its query and cause, without the secret or any value bound to it", async () => {
		const logged: string[] = [];
		vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
			logged.push(args.map(String).join(" "));
		});
		// A database without the tables: the insert fails as a real statement does, with its values bound.
		const d1 = watchedD1(env.EMPTY_DB);
		const response = await createWith({ DB: d1.binding });
		await expectError(response, 500, "internal_error");

		const bound = d1.sent().flatMap((statement) => statement.params);
		const sealed = bound.find((value): value is string =>
			/^v1\./.test(String(value)),
		);
		expect(sealed).toBeDefined();
		const secret = await openSecret(sealed ?? "", env);
		const values = bound.filter(
			(value): value is string => typeof value === "string",
		);
		expect(values).toEqual(
			expect.arrayContaining([
				newWebhook.url,
				JSON.stringify(newWebhook.events),
			]),
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
