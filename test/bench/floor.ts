/**
 * The floor the benchmarks compare the API with: a hand-written Worker, no framework, that runs the same
 * D1 work per request as the API (one statement or one batch) and answers the same JSON.
 *
 * It also makes the platform calls the contract requires of the API whatever code surrounds them: one JSON
 * log line per request, and the rate-limit binding on writes. Under `wrangler dev` these two cost more than
 * all the rest (DevTools receives every console call; the limiter is simulated by a Durable Object), so
 * the ratio against this floor measures the framework. The bare floor (`BARE`) skips them.
 */
type FloorEnv = Env & { BARE?: string };

const answer = async (request: Request, env: FloorEnv): Promise<Response> => {
	const url = new URL(request.url);
	const pet = /^\/pets\/(\d+)$/.exec(url.pathname);
	if (request.method === "GET" && pet) {
		const row = await env.DB.prepare(
			"SELECT id, name, category_id AS categoryId, status FROM pets WHERE id = ?",
		)
			.bind(Number(pet[1]))
			.first();
		return row ? Response.json(row) : new Response(null, { status: 404 });
	}
	if (!env.BARE) {
		const key = request.headers.get("cf-connecting-ip") ?? "anonymous";
		const { success } = await env.WRITE_LIMITER.limit({ key });
		if (!success) return new Response(null, { status: 429 });
	}
	if (request.method === "POST" && url.pathname === "/pets") {
		const body = await request.json<{ name: string; categoryId: number }>();
		const [inserted] = await env.DB.batch([
			env.DB.prepare(
				"INSERT INTO pets (name, name_key, category_id, status) SELECT ?, ?, id, 'available' FROM categories WHERE id = ? RETURNING id, name, category_id AS categoryId, status",
			).bind(
				body.name,
				body.name.normalize("NFC").toUpperCase().toLowerCase(),
				body.categoryId,
			),
			env.DB.prepare(
				"INSERT INTO inventory (pet_id, quantity) SELECT id, 0 FROM pets WHERE id = last_insert_rowid() AND changes() = 1",
			),
		]);
		return Response.json(inserted.results[0], { status: 201 });
	}
	if (request.method === "POST" && url.pathname === "/store/orders") {
		const body = await request.json<{ petId: number; quantity: number }>();
		const [, placed] = await env.DB.batch([
			env.DB.prepare(
				"UPDATE inventory SET quantity = quantity - ?1 WHERE pet_id = ?2 AND quantity >= ?1",
			).bind(body.quantity, body.petId),
			env.DB.prepare(
				"INSERT INTO orders (pet_id, quantity, ship_date, complete) SELECT ?, ?, ?, 0 WHERE changes() = 1 RETURNING id, pet_id AS petId, quantity, ship_date AS shipDate, complete",
			).bind(body.petId, body.quantity, new Date().toISOString()),
		]);
		const order = placed.results[0];
		return order
			? Response.json({ ...order, complete: false }, { status: 201 })
			: new Response(null, { status: 409 });
	}
	return new Response(null, { status: 404 });
};

export default {
	async fetch(request, env) {
		const start = Date.now();
		const response = await answer(request, env);
		if (!env.BARE) {
			console.log(
				JSON.stringify({
					requestId: crypto.randomUUID(),
					method: request.method,
					path: new URL(request.url).pathname,
					status: response.status,
					durationMs: Date.now() - start,
				}),
			);
		}
		return response;
	},
} satisfies ExportedHandler<FloorEnv>;
