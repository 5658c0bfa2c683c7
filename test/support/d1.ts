import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";

/** A statement as the app sent it to D1: its SQL and its bound values. */
export type SentStatement = { sql: string; params: unknown[] };

/** One call that reached D1: how it was made, the session constraint it ran under (if any), its statements. */
export type D1Call = {
	method: "all" | "first" | "run" | "raw" | "batch" | "exec";
	session: string | null;
	statements: SentStatement[];
};

const executions = new Set<PropertyKey>(["all", "first", "run", "raw"]);

/**
 * The real `DB` binding, watching what reaches D1: the calls (statement executions `all`, `first`, `run`, `raw`;
 * `batch`; `exec`), on the binding or on any session opened from it, and every statement they ran. Statements are
 * unwrapped before they are batched.
 */
export const watchedD1 = (db: D1Database) => {
	const log: D1Call[] = [];
	let changed = 0;
	/** Counts the rows D1 says a result changed (its statements' triggers' too). */
	const counted = <R>(result: R) => {
		for (const one of [result].flat()) {
			changed += (one as { meta?: { changes?: number } } | null)?.meta?.changes ?? 0;
		}
		return result;
	};
	const real = new WeakMap<object, [D1PreparedStatement, SentStatement]>();
	const wrap = (
		statement: D1PreparedStatement,
		query: SentStatement,
		session: string | null,
	): D1PreparedStatement => {
		const proxy = new Proxy(statement, {
			get(target, key) {
				if (key === "bind") {
					return (...values: unknown[]) =>
						wrap(target.bind(...values), { sql: query.sql, params: values }, session);
				}
				const value = Reflect.get(target, key, target);
				if (executions.has(key)) {
					log.push({ method: key as D1Call["method"], session, statements: [query] });
					return (...args: unknown[]) => value.apply(target, args).then(counted);
				}
				return typeof value === "function" ? value.bind(target) : value;
			},
		});
		real.set(proxy, [statement, query]);
		return proxy;
	};
	const watching = <T extends D1Database | D1DatabaseSession>(
		client: T,
		session: string | null,
	): T =>
		new Proxy(client, {
			get(target, key) {
				if (key === "prepare") {
					return (query: string) =>
						wrap(target.prepare(query), { sql: query, params: [] }, session);
				}
				if (key === "batch") {
					return (statements: D1PreparedStatement[]) => {
						const call: D1Call = { method: "batch", session, statements: [] };
						log.push(call);
						const sent = statements.map((s) => {
							const [statement, query] = real.get(s) ?? [s];
							if (query) call.statements.push(query);
							return statement;
						});
						return target.batch(sent).then(counted);
					};
				}
				if (key === "exec") {
					log.push({ method: "exec", session, statements: [] });
				}
				if (key === "withSession") {
					return (constraint = "first-unconstrained") =>
						watching((target as D1Database).withSession(constraint), constraint);
				}
				const value = Reflect.get(target, key, target);
				return typeof value === "function" ? value.bind(target) : value;
			},
		});
	return {
		binding: watching(db, null),
		calls: () => log.length,
		/** Every statement that ran, in order. */
		sent: () => log.flatMap((call) => call.statements),
		/** Every call, in order, with the session it ran under. */
		log: () => log,
		/** The rows the calls that ran and wrote changed, as D1 counts them. */
		rowsChanged: () => changed,
	};
};

/**
 * Counts, in place, the calls that reach D1 through the binding `db` from anywhere in this isolate (the
 * Durable Objects of the main Worker included) until `restore()`.
 */
export const spyOnD1 = (db: D1Database) => {
	const original = {
		prepare: db.prepare.bind(db),
		batch: db.batch.bind(db),
		withSession: db.withSession.bind(db),
	};
	const watched = watchedD1(original as D1Database);
	const spies = [
		vi.spyOn(db, "prepare").mockImplementation(watched.binding.prepare),
		vi.spyOn(db, "batch").mockImplementation(watched.binding.batch),
		vi.spyOn(db, "withSession").mockImplementation(watched.binding.withSession),
	];
	return {
		calls: watched.calls,
		restore: () => {
			for (const spy of spies) spy.mockRestore();
		},
	};
};

/**
 * `EMPTY_DB` as a test needs it, whatever an earlier test left: every table dropped (never migrated), then, when
 * `migrated`, the migrations applied.
 */
export const spareDatabase = async ({ migrated = false } = {}) => {
	const db = env.EMPTY_DB;
	const { results } = await db
		.prepare(
			"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
		)
		.all<{ name: string }>();
	// Triggers and virtual tables go with the tables they belong to; foreign keys must not stop a drop.
	await db.batch([
		db.prepare("PRAGMA defer_foreign_keys = true"),
		...results.map(({ name }) => db.prepare(`DROP TABLE IF EXISTS "${name}"`)),
	]);
	if (migrated) await applyD1Migrations(db, env.TEST_MIGRATIONS);
	return db;
};
