/** `rows` (the first is the header) as a Markdown table with aligned columns. */
export const markdownTable = (rows) => {
	const widths = rows[0].map((_, i) => Math.max(3, ...rows.map((row) => row[i].length)));
	const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(" | ")} |`;
	return [
		line(rows[0]),
		line(widths.map((width) => "-".repeat(width))),
		...rows.slice(1).map(line),
	].join("\n");
};

/** `value` with `digits` decimals. */
export const f = (value, digits = 1) => value.toFixed(digits);

/** The middle value (the upper one of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
