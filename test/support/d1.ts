import { vi } from "vitest";

/** A statement as the app sent it to D1: its SQL and its bound values. */
export type SentStatement = { sql: string; params: unknown[] };

/**
 * The real `DB` binding, watching what reaches D1: the calls (statement executions `all`, `first`, `run`, `raw`;
 * `batch`; `exec`), on the binding or on any session opened from it, and every statement they ran. Statements are
 * unwrapped before they are batched.
 */
export const watchedD1 = (db: D1Database) => {
	let calls = 0;
	const sent: SentStatement[] = [];
	const real = new WeakMap<object, [D1PreparedStatement, SentStatement]>();
	const wrap = (
		statement: D1PreparedStatement,
		query: SentStatement,
	): D1PreparedStatement => {
		const proxy = new Proxy(statement, {
			get(target, key) {
				if (key === "bind") {
					return (...values: unknown[]) =>
						wrap(target.bind(...values), { sql: query.sql, params: values });
				}
				if (
					key === "all" ||
					key === "first" ||
					key === "run" ||
					key === "raw"
				) {
					calls++;
					sent.push(query);
				}
				const value = Reflect.get(target, key, target);
				return typeof value === "function" ? value.bind(target) : value;
			},
		});
		real.set(proxy, [statement, query]);
		return proxy;
	};
	const watching = <T extends D1Database | D1DatabaseSession>(client: T): T =>
		new Proxy(client, {
			get(target, key) {
				if (key === "prepare") {
					return (query: string) =>
						wrap(target.prepare(query), { sql: query, params: [] });
				}
				if (key === "batch") {
					return (statements: D1PreparedStatement[]) => {
						calls++;
						return target.batch(
							statements.map((s) => {
								const [statement, query] = real.get(s) ?? [s];
								if (query) sent.push(query);
								return statement;
							}),
						);
					};
				}
				if (key === "exec") calls++;
				if (key === "withSession") {
					return (bookmark?: string) =>
						watching((target as D1Database).withSession(bookmark));
				}
				const value = Reflect.get(target, key, target);
				return typeof value === "function" ? value.bind(target) : value;
			},
		});
	return { binding: watching(db), calls: () => calls, sent: () => sent };
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
