/**
 * The real `DB` binding, counting the calls that reach D1: statement executions (`all`, `first`, `run`,
 * `raw`), `batch` and `exec`, on the binding or on any session opened from it, and keeping every value bound
 * to a statement. Statements are unwrapped before they are batched.
 */
export const countingD1 = (db: D1Database) => {
	let calls = 0;
	const bound: unknown[] = [];
	const real = new WeakMap<object, D1PreparedStatement>();
	const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
		const proxy = new Proxy(statement, {
			get(target, key) {
				if (key === "bind") {
					return (...values: unknown[]) => {
						bound.push(...values);
						return wrap(target.bind(...values));
					};
				}
				if (
					key === "all" ||
					key === "first" ||
					key === "run" ||
					key === "raw"
				) {
					calls++;
				}
				const value = Reflect.get(target, key, target);
				return typeof value === "function" ? value.bind(target) : value;
			},
		});
		real.set(proxy, statement);
		return proxy;
	};
	const counting = <T extends D1Database | D1DatabaseSession>(client: T): T =>
		new Proxy(client, {
			get(target, key) {
				if (key === "prepare") {
					return (query: string) => wrap(target.prepare(query));
				}
				if (key === "batch") {
					return (statements: D1PreparedStatement[]) => {
						calls++;
						return target.batch(statements.map((s) => real.get(s) ?? s));
					};
				}
				if (key === "exec") calls++;
				if (key === "withSession") {
					return (bookmark?: string) =>
						counting((target as D1Database).withSession(bookmark));
				}
				const value = Reflect.get(target, key, target);
				return typeof value === "function" ? value.bind(target) : value;
			},
		});
	return { binding: counting(db), calls: () => calls, bound: () => bound };
};
