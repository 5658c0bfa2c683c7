/**
 * Webhook signing secrets at rest: AES-256-GCM under a key derived from the `WEBHOOK_SECRET_KEY` Worker secret,
 * so that a copy of the database (an export, a backup, a logged row) cannot sign deliveries.
 */

declare const sealed: unique symbol;
/** A secret as stored: `v1.`, then the 96-bit IV and the ciphertext with its tag, each in base64, dot-separated. */
export type SealedSecret = string & { readonly [sealed]: true };

/** The storage format's version: names the cipher and how its key is derived, so either can change later. */
const version = "v1";
const minKeyLength = 32;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) =>
	Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

const deriveKey = async (material: string) =>
	crypto.subtle.deriveKey(
		{
			name: "HKDF",
			hash: "SHA-256",
			salt: new Uint8Array(),
			info: encoder.encode(`petstore webhook secrets ${version}`),
		},
		await crypto.subtle.importKey(
			"raw",
			encoder.encode(material),
			"HKDF",
			false,
			["deriveKey"],
		),
		{ name: "AES-GCM", length: 256 },
		false,
		["encrypt", "decrypt"],
	);

// The AES key, derived once per isolate and key value.
let cached: { material: string; key: Promise<CryptoKey> } | undefined;
const keyOf = (material: string | undefined) => {
	if (!material || material.length < minKeyLength) {
		throw new Error(
			`WEBHOOK_SECRET_KEY is not configured: it needs at least ${minKeyLength} characters`,
		);
	}
	if (cached?.material !== material) {
		cached = { material, key: deriveKey(material) };
	}
	return cached.key;
};

type KeyEnv = Pick<Env, "WEBHOOK_SECRET_KEY">;

/** Encrypts a signing secret for storage, under a fresh random IV. */
export const sealSecret = async (
	plain: string,
	env: KeyEnv,
): Promise<SealedSecret> => {
	const iv = crypto.getRandomValues(new Uint8Array(12));
	const ciphertext = await crypto.subtle.encrypt(
		{ name: "AES-GCM", iv },
		await keyOf(env.WEBHOOK_SECRET_KEY),
		encoder.encode(plain),
	);
	return `${version}.${toBase64(iv)}.${toBase64(new Uint8Array(ciphertext))}` as SealedSecret;
};

/** Decrypts a stored signing secret; throws when it is not in a known format or another key sealed it. */
export const openSecret = async (sealed: string, env: KeyEnv) => {
	const [format, iv, ciphertext, ...rest] = sealed.split(".");
	if (format !== version || !iv || !ciphertext || rest.length > 0) {
		throw new Error(
			"The stored webhook secret is not in a known sealed format",
		);
	}
	const plain = await crypto.subtle.decrypt(
		{ name: "AES-GCM", iv: fromBase64(iv) },
		await keyOf(env.WEBHOOK_SECRET_KEY),
		fromBase64(ciphertext),
	);
	return decoder.decode(plain);
};
