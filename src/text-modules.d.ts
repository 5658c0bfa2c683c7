/** A module wrangler.toml's `[[rules]]` import as text: the SQL of drizzle-kit's Durable Object migrations. */
declare module "*.sql" {
	const text: string;
	export default text;
}
