/**
 * The bare floor the benchmarks compare the API with: a hand-written Worker, no framework, that runs the
 * API's D1 work per request (the same SQL: one statement for a read, one batch for a write) and answers the
 * same body, and nothing else: no validation, headers, session or rate limit.
 */
import { nameKey } from "../../src/db/name-key";

type Tagged = { id: number; etag: string };

/** A 201 with the new resource, its `Location` and its `ETag`, as the API answers. */
const created = <T extends Tagged>({ etag, ...body }: T, location: string) =>
	Response.json(body, {
		status: 201,
		headers: { Location: location, ETag: etag },
	});

const answer = async (request: Request, db: D1Database): Promise<Response> => {
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
		return Response.json(body, { headers: { ETag: etag } });
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

export default {
	fetch: (request, env) => answer(request, env.DB),
} satisfies ExportedHandler<Env>;
