/**
 * The floor `npm run bench` compares the API with: a hand-written Worker, no framework, doing the platform
 * work the API does for a read, a write and an order, and answering the same status and body. That work is
 * the API's own D1 statements (floor-statements.ts) through a D1 session opened as src/db/client.ts opens
 * it, with its bookmark on the response; the same limiter call first (`READ_LIMITER` or `WRITE_LIMITER`) and on
 * writes the same `WEBHOOK_QUEUE` nudge after, through `waitUntil`. Nothing else: no validation, token check, headers or
 * error bodies. Of the API it imports only `nameKey` (floor-statements.ts): its bundle holds no framework.
 */
import { createPet, placeOrder, readPet, type Steps } from "./floor-statements";

type Row = Record<string, unknown>;
type Db = D1Database | D1DatabaseSession;

/** The platform parts besides D1 that the floor uses, all unless `FLOOR_PARTS` lists some (comma-separated). */
const parts = ["session", "limiter", "queue"] as const;
/** The API's bindings, and the parts: `npm run bench` leaves some out to show what each costs on its own. */
type FloorEnv = Env & { FLOOR_PARTS?: string };
const partsOf = ({ FLOOR_PARTS }: FloorEnv) =>
	new Set(FLOOR_PARTS === undefined ? parts : FLOOR_PARTS.split(","));

/** The API's session header (src/http/session.ts); runtime.bench.ts checks that both answer it. */
const bookmarkHeader = "X-D1-Bookmark";

/** Runs `steps` as one batch and returns each step's result (its rows, and how many it changed) by name. */
const batch = async <S extends Steps<never>>(
	db: Db,
	steps: S,
	input: Parameters<S[keyof S]["params"]>[0],
) => {
	const names = Object.keys(steps) as (keyof S & string)[];
	const results = await db.batch<Row>(
		names.map((name) => db.prepare(steps[name].sql).bind(...steps[name].params(input))),
	);
	return Object.fromEntries(names.map((name, index) => [name, results[index]])) as Record<
		keyof S,
		D1Result<Row>
	>;
};

/** A row's resource (JSON built in SQL, as the API's statements build it) and its ETag. */
const resource = (row: unknown[]): [object, unknown] => [JSON.parse(String(row[0])), row[1]];

/** A write's resource and its ETag, as the API's probe reads it by name; none when nothing was written. */
const written = (probed: unknown): [object, unknown] | undefined => {
	if (probed === null) return undefined;
	const { answer, etag } = JSON.parse(String(probed));
	return [answer, etag];
};

/** The answer with the resource, its `ETag` and the session's bookmark. */
const answer = (
	db: Db,
	status: number,
	[body, etag]: [object, unknown],
	headers: Record<string, string> = {},
) => {
	const bookmark = "getBookmark" in db && db.getBookmark();
	return Response.json(body, {
		status,
		headers: { ETag: String(etag), ...(bookmark && { [bookmarkHeader]: bookmark }), ...headers },
	});
};

/** The Worker, its clock at `now` (as `createApp`'s), so that it binds the values the API binds. */
export const createFloor = ({ now = Date.now }: { now?: () => number } = {}) =>
	({
		async fetch(request, env, ctx) {
			const url = new URL(request.url);
			const write = request.method !== "GET";
			const uses = partsOf(env);
			if (uses.has("limiter")) {
				const key = request.headers.get("cf-connecting-ip") ?? "unknown";
				const limiter = write ? env.WRITE_LIMITER : env.READ_LIMITER;
				const { success } = await limiter.limit({ key });
				if (!success) return new Response(null, { status: 429 });
			}
			const db = uses.has("session")
				? env.DB.withSession(
						request.headers.get(bookmarkHeader) ||
							(write ? "first-primary" : "first-unconstrained"),
					)
				: env.DB;
			const at = new Date(now()).toISOString();
			const nudged = (response: Response) => {
				if (uses.has("queue")) {
					ctx.waitUntil(env.WEBHOOK_QUEUE.send({ kind: "sweep" }));
				}
				return response;
			};

			const petId = /^\/pets\/(\d+)$/.exec(url.pathname)?.[1];
			if (request.method === "GET" && petId) {
				const [row] = await db
					.prepare(readPet.sql)
					.bind(...readPet.params({ petId: Number(petId), now: at }))
					.raw();
				if (!row) return new Response(null, { status: 404 });
				return answer(db, 200, resource(row));
			}
			if (request.method === "POST" && url.pathname === "/pets") {
				const body = await request.json<{ name: string; categoryId: number }>();
				const { pet: inserted, probe } = await batch(db, createPet, { ...body, now: at });
				const created = inserted.meta.changes > 0 && written(probe.results[0].pet);
				if (!created) return new Response(null, { status: 422 });
				const [pet, etag] = created;
				return nudged(
					answer(db, 201, [pet, etag], { Location: `/pets/${(pet as { id: number }).id}` }),
				);
			}
			if (request.method === "POST" && url.pathname === "/store/orders") {
				const body = await request.json<{ petId: number; quantity: number }>();
				const { order: inserted, probe } = await batch(db, placeOrder, { ...body, now: at });
				const [row] = probe.results;
				const placed = inserted.meta.changes > 0 && written(row.order);
				if (!placed) return new Response(null, { status: row.petExists ? 409 : 422 });
				const [order, etag] = placed;
				return nudged(
					answer(db, 201, [order, etag], {
						Location: `/store/orders/${(order as { id: number }).id}`,
					}),
				);
			}
			return new Response(null, { status: 404 });
		},
	}) satisfies ExportedHandler<FloorEnv>;

export default createFloor();
