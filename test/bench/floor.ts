/**
 * The floor the benchmarks compare the API with: a hand-written Worker, no framework, that runs the same
 * D1 work per request as the API (one statement or one batch) and answers the same response.
 *
 * It also does what the contract requires of the API whatever code surrounds it: the D1 session (reads
 * from a replica, the bookmark back), the response headers (request id, CORS, secure defaults, ETag and
 * deprecation), one JSON log line per request, and the rate-limit binding on writes. Under `wrangler dev`
 * the log line and the limiter cost more than all the rest (DevTools receives every console call; the
 * limiter is simulated by a Durable Object), so the ratio against this floor measures the framework.
 * The bare floor (`BARE`) does the D1 work alone.
 */
import { nameKey } from "../../src/db/name-key";

type FloorEnv = Env & { BARE?: string };
type Tagged = { id: number; etag: string };

/** A 201 with the new resource, its `Location` and its `ETag`, as the API answers. */
const created = <T extends Tagged>({ etag, ...body }: T, location: string) =>
	Response.json(body, {
		status: 201,
		headers: { Location: location, ETag: etag },
	});

const answer = async (
	request: Request,
	env: FloorEnv,
	db: Pick<D1Database, "prepare" | "batch">,
): Promise<Response> => {
	const url = new URL(request.url);
	const pet = /^\/pets\/(\d+)$/.exec(url.pathname);
	if (request.method === "GET" && pet) {
		const row = await db
			.prepare(
				`SELECT id, name, category_id AS categoryId, status, '"' || version || '"' AS etag FROM pets WHERE id = ?`,
			)
			.bind(Number(pet[1]))
			.first<Tagged>();
		if (!row) return new Response(null, { status: 404 });
		const { etag, ...body } = row;
		return Response.json(body, {
			headers: {
				ETag: etag,
				Deprecation: "@1795132800",
				Sunset: "Wed, 30 Jun 2027 23:59:59 GMT",
				Link: '</reference#tag/animals/GET/pets/%7BpetId%7D>; rel="deprecation"; type="text/html"',
			},
		});
	}
	if (!env.BARE) {
		const key = request.headers.get("cf-connecting-ip") ?? "anonymous";
		const { success } = await env.WRITE_LIMITER.limit({ key });
		if (!success) return new Response(null, { status: 429 });
	}
	if (request.method === "POST" && url.pathname === "/pets") {
		const body = await request.json<{ name: string; categoryId: number }>();
		const [inserted] = await db.batch<Tagged>([
			db
				.prepare(
					`INSERT INTO pets (name, name_key, category_id, status, version) SELECT ?, ?, id, 'available', 1 FROM categories WHERE id = ? RETURNING id, name, category_id AS categoryId, status, '"' || version || '"' AS etag`,
				)
				.bind(body.name, nameKey(body.name), body.categoryId),
			db.prepare(
				"INSERT INTO inventory (pet_id, quantity, version) SELECT id, 0, 1 FROM pets WHERE id = last_insert_rowid() AND changes() = 1",
			),
		]);
		const [pet] = inserted.results;
		return pet
			? created(pet, `/pets/${pet.id}`)
			: new Response(null, { status: 422 });
	}
	if (request.method === "POST" && url.pathname === "/store/orders") {
		const body = await request.json<{ petId: number; quantity: number }>();
		// As the API: a probe that says why nothing happened, the stock taken only from an available pet.
		const [probe, , placed] = await db.batch<
			Tagged & { pet: number; available: number }
		>([
			db
				.prepare(
					"SELECT EXISTS (SELECT 1 FROM pets WHERE id = ?1) AS pet, EXISTS (SELECT 1 FROM pets WHERE id = ?1 AND status = 'available') AS available",
				)
				.bind(body.petId),
			db
				.prepare(
					"UPDATE inventory SET quantity = quantity - ?1, version = version + 1 WHERE pet_id = ?2 AND quantity >= ?1 AND EXISTS (SELECT 1 FROM pets WHERE id = ?2 AND status = 'available')",
				)
				.bind(body.quantity, body.petId),
			db
				.prepare(
					"INSERT INTO orders (pet_id, quantity, ship_date, complete, version) SELECT ?, ?, ?, 0, 1 WHERE changes() = 1 RETURNING id, pet_id AS petId, quantity, ship_date AS shipDate, complete, '\"' || version || '\"' AS etag",
				)
				.bind(body.petId, body.quantity, new Date().toISOString()),
		]);
		const [order] = placed.results;
		if (order) {
			return created(
				{ ...order, complete: false },
				`/store/orders/${order.id}`,
			);
		}
		return new Response(null, { status: probe.results[0].pet ? 409 : 422 });
	}
	return new Response(null, { status: 404 });
};

/** The headers the contract puts on every response: CORS for any origin, and the secure defaults. */
const contractHeaders = {
	"Access-Control-Allow-Origin": "*",
	"Access-Control-Expose-Headers":
		"Link,ETag,Location,Deprecation,Sunset,Retry-After,X-Request-Id,Idempotency-Replayed,X-D1-Bookmark",
	"Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
	"Cross-Origin-Opener-Policy": "same-origin",
	"Cross-Origin-Resource-Policy": "cross-origin",
	"Origin-Agent-Cluster": "?1",
	"Referrer-Policy": "no-referrer",
	"Strict-Transport-Security": "max-age=15552000; includeSubDomains",
	"X-Content-Type-Options": "nosniff",
	"X-DNS-Prefetch-Control": "off",
	"X-Download-Options": "noopen",
	"X-Frame-Options": "SAMEORIGIN",
	"X-Permitted-Cross-Domain-Policies": "none",
	"X-XSS-Protection": "0",
};

export default {
	async fetch(request, env) {
		if (env.BARE) return answer(request, env, env.DB);
		const start = Date.now();
		const write = request.method !== "GET" && request.method !== "HEAD";
		const session = env.DB.withSession(
			request.headers.get("X-D1-Bookmark") ??
				(write ? "first-primary" : "first-unconstrained"),
		);
		const response = await answer(request, env, session);
		const requestId = crypto.randomUUID();
		const headers = {
			...contractHeaders,
			"X-Request-Id": requestId,
			"X-D1-Bookmark": session.getBookmark() ?? "",
		};
		for (const [name, value] of Object.entries(headers)) {
			response.headers.set(name, value);
		}
		console.log(
			JSON.stringify({
				requestId,
				method: request.method,
				path: new URL(request.url).pathname,
				status: response.status,
				durationMs: Date.now() - start,
			}),
		);
		return response;
	},
} satisfies ExportedHandler<FloorEnv>;
