import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "./client";

/**
 * The walks of a list filtered by one of several values (pet statuses, event types), each a page in id order:
 * one per value asked for, or one over every value. SQLite walks a `(value, id)` index in id order for one
 * value only, and for `value IN (…)` would sort every matching row; separate walks stop at the page.
 */
export const filterWalks = <Page, Value>(
	values: Value[] | undefined,
	page: (value?: Value) => Page,
): [Page, ...Page[]] => {
	const [first, ...rest] = values ?? [undefined];
	return [page(first), ...rest.map(page)];
};

/** A walk: a query for a page of rows, which a batch can run. */
type Walk<Row> = BatchItem<"sqlite"> & PromiseLike<Row[]>;

/** Runs the walks in one batch and merges their rows into the first `size` in id order. */
export const mergeWalks = async <Row>(
	db: Db,
	walks: [Walk<Row>, ...Walk<Row>[]],
	size: number,
	id: (row: Row) => number,
): Promise<Row[]> => {
	if (walks.length === 1) return await walks[0];
	// A batch answers each query with what awaiting it would.
	const pages = (await db.batch(walks)) as readonly Row[][];
	return pages
		.flat()
		.sort((a, b) => id(a) - id(b))
		.slice(0, size);
};
