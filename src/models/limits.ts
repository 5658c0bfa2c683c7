/** Bounds shared by the zod schemas (and so the document) and the table CHECK constraints. */
export const limits = {
	/** 2^53-1: the largest id a JSON/JS client can hold exactly. */
	maxId: Number.MAX_SAFE_INTEGER,
	petName: 100,
	categoryName: 50,
	categoryDescription: 500,
	orderQuantity: 1000,
	stock: 1_000_000,
} as const;
