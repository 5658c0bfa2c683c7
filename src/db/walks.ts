import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "./client";

/** A walk: a query for a page of rows in id order, which a batch can run. */
type Walk<Row> = BatchItem<"sqlite"> & PromiseLike<Row[]>;

/**
 * The first `size` rows, in id order, of a list filtered by any of several values (pet statuses, event types): a
 * walk per value (or one over all), in one batch with what is read `alongside`. SQLite walks a `(value, id)` index in id order
 * for one value only, and for `value IN (…)` would sort every matching row; separate walks stop at the page.
 */
export const walkEach = async <Value, Row, Alongside = never>(
	db: Db,
	list: {
		/** The values to walk, one walk each: all rows in one walk when there are none. */
		values: Value[] | undefined;
		walk: (value?: Value) => Walk<Row>;
		/** How many rows the list answers. */
		size: number;
		/** A row's id, which orders the walks' rows into one list. */
		id: (row: Row) => number;
		/** A query run in the same batch, whose rows are answered beside the list's. */
		alongside?: Walk<Alongside>;
	},
): Promise<{ rows: Row[]; alongside: Alongside[] }> => {
	const { values, walk, size, id, alongside } = list;
	const walks = (values?.length ? values : [undefined]).map(walk);
	if (walks.length === 1 && alongside === undefined) return { rows: await walks[0], alongside: [] };
	const batch = [...walks, ...(alongside ? [alongside] : [])] as [Walk<Row>, ...Walk<Row>[]];
	// A batch answers each query with what awaiting it would.
	const pages = (await db.batch(batch)) as unknown[][];
	return {
		rows: (pages.slice(0, walks.length) as Row[][])
			.flat()
			.sort((a, b) => id(a) - id(b))
			.slice(0, size),
		alongside: (pages[walks.length] ?? []) as Alongside[],
	};
};
