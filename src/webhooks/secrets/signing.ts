const encoder = new TextEncoder();

/** Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, keyed by a `whsec_` secret's bytes. */
const signature = async (secret: string, id: string, timestamp: number, body: string) => {
	const key = await crypto.subtle.importKey(
		"raw",
		Uint8Array.fromBase64(secret.slice("whsec_".length)),
		{ name: "HMAC", hash: "SHA-256" },
		false,
		["sign"],
	);
	const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${id}.${timestamp}.${body}`));
	return `v1,${new Uint8Array(mac).toBase64()}`;
};

/** The `webhook-signature` header: one signature per secret, newest first, space-separated (during a rotation). */
export const sign = async (secrets: string[], id: string, timestamp: number, body: string) =>
	(await Promise.all(secrets.map((secret) => signature(secret, id, timestamp, body)))).join(" ");
