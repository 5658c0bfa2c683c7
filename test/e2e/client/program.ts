// A strict program over the client openapi-typescript and openapi-fetch generate from the served document
// (test/e2e/generated-client.e2e.mjs): it calls every operation and reads every field of every answer,
// without `!` or `?.`. It is type-checked, never run.
import createClient from "openapi-fetch";
import { orderLine as order, placedLine } from "./reads";
import type { paths } from "./schema";

const client = createClient<paths>({
	baseUrl: "http://localhost:8787",
	headers: { Authorization: "Bearer petstore-dev-token" },
});

/** The body of a successful answer. */
const ok = <T>(answer: { data?: T; error?: unknown }): T => {
	if (answer.data === undefined) throw new Error(JSON.stringify(answer.error));
	return answer.data;
};

type Status = "available" | "pending" | "sold";
const pet = (p: { id: number; name: string; categoryId: number; status: Status }) =>
	`${p.id} ${p.name} ${p.categoryId} ${p.status}`;
const category = (c: { id: number; name: string; description?: string }) =>
	`${c.id} ${c.name} ${c.description ?? ""}`;
const item = (i: { petId: number; quantity: number; status: Status }) =>
	`${i.petId} ${i.quantity} ${i.status}`;
const webhook = (w: {
	id: number;
	url: string;
	events: string[];
	createdAt: string;
	disabled: boolean;
	failures: number;
	lastStatus: number | null;
	lastAttemptAt: string | null;
}) =>
	`${w.id} ${w.url} ${w.events.join()} ${w.createdAt} ${w.disabled} ${w.failures} ${w.lastStatus} ${w.lastAttemptAt}`;
const id = { petId: 1 };
const attempt = (a: {
	id: number;
	eventId: number;
	attempt: number;
	status: number;
	durationMs: number;
	error: string | null;
	outcome: "delivered" | "retrying" | "exhausted" | "disabled" | "held";
	nextAttemptAt: string | null;
	attemptedAt: string;
}) =>
	`${a.id} ${a.eventId} ${a.attempt} ${a.status} ${a.durationMs} ${a.error} ${a.outcome} ${a.nextAttemptAt} ${a.attemptedAt}`;
const oneWebhook = { params: { path: { webhookId: 1 } } };
type Scope = "pets:write" | "orders:write" | "inventory:write" | "webhooks:manage" | "keys:manage";
const key = (k: {
	id: number;
	name: string;
	scopes: Scope[];
	start: string;
	createdAt: string;
	expiresAt?: string;
	lastUsedAt?: string;
}) =>
	`${k.id} ${k.name} ${k.scopes.join()} ${k.start} ${k.createdAt} ${k.expiresAt ?? ""} ${k.lastUsedAt ?? ""}`;
const oneKey = { params: { path: { keyId: 1 } } };

/** A placed order, as the generated client types it. */
export const placedOrder = async () =>
	ok(
		await client.POST("/store/orders", {
			params: { header: { "Idempotency-Key": "7f9c2ba4-e88f-4a1b-9d3c-2a8c5e6b1f00" } },
			body: { petId: 1, quantity: 2, shipDate: "2026-12-24T09:00:00Z" },
		}),
	);

export const everyOperation = async () => [
	ok(await client.GET("/health")).status,
	...ok(
		await client.GET("/pets", { params: { query: { status: ["available"], name: "re" } } }),
	).map(pet),
	pet(ok(await client.POST("/pets", { body: { name: "Rex", categoryId: 1 } }))),
	pet(ok(await client.GET("/pets/{petId}", { params: { path: id } }))),
	pet(
		ok(
			await client.PUT("/pets/{petId}", {
				params: { path: id },
				body: { name: "Rex", categoryId: 1 },
			}),
		),
	),
	pet(ok(await client.PATCH("/pets/{petId}", { params: { path: id }, body: { status: "sold" } }))),
	(await client.DELETE("/pets/{petId}", { params: { path: id } })).response.status,
	...ok(await client.GET("/categories", { params: { query: { limit: 10 } } })).map(category),
	category(ok(await client.POST("/categories", { body: { name: "Dog" } }))),
	category(
		ok(await client.GET("/categories/{categoryId}", { params: { path: { categoryId: 1 } } })),
	),
	category(
		ok(
			await client.PUT("/categories/{categoryId}", {
				params: { path: { categoryId: 1 } },
				body: { name: "Dog" },
			}),
		),
	),
	category(
		ok(
			await client.PATCH("/categories/{categoryId}", {
				params: { path: { categoryId: 1 } },
				body: { description: "Loyal companions." },
			}),
		),
	),
	(await client.DELETE("/categories/{categoryId}", { params: { path: { categoryId: 1 } } }))
		.response.status,
	...ok(
		await client.GET("/store/orders", { params: { query: { petId: 1, complete: false } } }),
	).map(order),
	order(await placedOrder()),
	order(ok(await client.GET("/store/orders/{orderId}", { params: { path: { orderId: 1 } } }))),
	order(
		ok(
			await client.PATCH("/store/orders/{orderId}", {
				params: { path: { orderId: 1 } },
				body: { complete: true },
			}),
		),
	),
	(await client.DELETE("/store/orders/{orderId}", { params: { path: { orderId: 1 } } })).response
		.status,
	...ok(await client.GET("/store/inventory", { params: { query: { status: ["sold"] } } })).map(
		item,
	),
	item(ok(await client.GET("/store/inventory/{petId}", { params: { path: id } }))),
	item(
		ok(
			await client.PUT("/store/inventory/{petId}", {
				params: { path: id },
				body: { quantity: 10 },
			}),
		),
	),
	...ok(
		await client.GET("/events", {
			params: { query: { type: ["order.placed"], subject: "/store/orders/1" } },
		}),
	).map((e) =>
		e.type === "order.placed"
			? placedLine(e)
			: `${e.id} ${e.type} ${e.createdAt} ${JSON.stringify(e.data)}`,
	),
	...ok(await client.GET("/webhooks")).map(webhook),
	webhook(
		ok(
			await client.POST("/webhooks", {
				body: { url: "https://shop.example.com/hook", events: ["order.placed"] },
			}),
		),
	),
	ok(
		await client.POST("/webhooks", {
			body: { url: "https://shop.example.com/hook", events: ["pet.created"] },
		}),
	).secret,
	webhook(ok(await client.GET("/webhooks/{webhookId}", { params: { path: { webhookId: 1 } } }))),
	webhook(
		ok(await client.PATCH("/webhooks/{webhookId}", { ...oneWebhook, body: { disabled: false } })),
	),
	ok(await client.POST("/webhooks/{webhookId}/rotate-secret", oneWebhook)).secret,
	(await client.POST("/webhooks/{webhookId}/replay", { ...oneWebhook, body: { after: 41 } }))
		.response.status,
	...ok(await client.GET("/webhooks/{webhookId}/deliveries", oneWebhook)).map(attempt),
	(await client.DELETE("/webhooks/{webhookId}", { params: { path: { webhookId: 1 } } })).response
		.status,
	...ok(await client.GET("/keys")).map(key),
	ok(await client.POST("/keys", { body: { name: "Shop front", scopes: ["orders:write"] } })).secret,
	key(ok(await client.GET("/keys/{keyId}", oneKey))),
	key(ok(await client.PATCH("/keys/{keyId}", { ...oneKey, body: { expiresAt: null } }))),
	ok(await client.POST("/keys/{keyId}/roll", { ...oneKey, body: { previousValidFor: 3600 } }))
		.secret,
	(await client.DELETE("/keys/{keyId}", oneKey)).response.status,
];
