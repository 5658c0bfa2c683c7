// Stands in for drizzle-orm's relational queries in the bundle (wrangler.toml `[alias]`): the API builds its client
// with `drizzle(d1)`, never with a `schema`, so `db.query.*` does not exist and nothing here runs; each entry throws.
const unavailable = (): never => {
	throw new Error(
		"drizzle's relational queries are not in the Worker bundle (src/bundle/drizzle-relations.ts, wrangler.toml [alias]).",
	);
};

// ../relations.js, as sqlite-core/dialect.js and d1/driver.js import it.
export class One {
	constructor() {
		unavailable();
	}
}
export class Many {
	constructor() {
		unavailable();
	}
}
export const getOperators = unavailable;
export const getOrderByOperators = unavailable;
export const normalizeRelation = unavailable;
export const extractTablesRelationalConfig = unavailable;
export const createTableRelationsHelpers = unavailable;
// ./query-builders/query.js, as sqlite-core/db.js imports it: built per schema table, so never without a schema.
export class RelationalQueryBuilder {
	constructor() {
		unavailable();
	}
}
