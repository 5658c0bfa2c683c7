/** A statement as D1 received it: its SQL and the values bound to it. */
export type SentStatement = { sql: string; params: unknown[] };

/** One call that reached D1: how it was made, the session constraint it ran under (if any), what it sent. */
export type D1Call = {
	method: "all" | "first" | "run" | "raw" | "batch" | "exec";
	session: string | null;
	statements: SentStatement[];
};

const executions = new Set<PropertyKey>(["all", "first", "run", "raw"]);

/**
 * The real `DB` binding, recording the calls that reach D1: statement executions (`all`, `first`, `run`,
 * `raw`), `batch` and `exec`, on the binding or on any session opened from it. Statements are unwrapped
 * before they are batched.
 */
export const countingD1 = (db: D1Database) => {
	const sent: D1Call[] = [];
	const real = new WeakMap<
		object,
		{ statement: D1PreparedStatement; sent: SentStatement }
	>();
	const wrap = (
		statement: D1PreparedStatement,
		session: string | null,
		sql: string,
		params: unknown[] = [],
	): D1PreparedStatement => {
		const proxy = new Proxy(statement, {
			get(target, key) {
				if (key === "bind") {
					return (...values: unknown[]) =>
						wrap(target.bind(...values), session, sql, values);
				}
				if (executions.has(key)) {
					sent.push({
						method: key as D1Call["method"],
						session,
						statements: [{ sql, params }],
					});
				}
				const value = Reflect.get(target, key, target);
				return typeof value === "function" ? value.bind(target) : value;
			},
		});
		real.set(proxy, { statement, sent: { sql, params } });
		return proxy;
	};
	const counting = <T extends D1Database | D1DatabaseSession>(
		client: T,
		session: string | null,
	): T =>
		new Proxy(client, {
			get(target, key) {
				if (key === "prepare") {
					return (sql: string) => wrap(target.prepare(sql), session, sql);
				}
				if (key === "batch") {
					return (statements: D1PreparedStatement[]) => {
						const unwrapped = statements.map((s) => real.get(s));
						sent.push({
							method: "batch",
							session,
							statements: unwrapped.map(
								(s) => s?.sent ?? { sql: "?", params: [] },
							),
						});
						return target.batch(
							statements.map((s, i) => unwrapped[i]?.statement ?? s),
						);
					};
				}
				if (key === "exec") {
					return (sql: string) => {
						sent.push({
							method: "exec",
							session,
							statements: [{ sql, params: [] }],
						});
						return (target as D1Database).exec(sql);
					};
				}
				if (key === "withSession") {
					return (constraint = "first-unconstrained") =>
						counting(
							(target as D1Database).withSession(constraint),
							constraint,
						);
				}
				const value = Reflect.get(target, key, target);
				return typeof value === "function" ? value.bind(target) : value;
			},
		});
	return {
		binding: counting(db, null),
		calls: () => sent.length,
		/** Every call so far, in order. */
		sent: () => sent,
	};
};
