import { log } from "../../http/log";
import { hexOf, sha256 } from "../../models/digest";
import type { EndpointConfig } from "../endpoint-config";

// Webhook signing secrets at rest: AES-256-GCM under keys derived from `WEBHOOK_SECRET_KEY` (comma-separated, newest
// first), so a copy of the database cannot sign. Sealed under the newest, opened under the one named: keys rotate.

declare const sealed: unique symbol;
/** `v2.<key id>.<IV>.<ciphertext and tag>` (the last two in base64); `v1.` values, older, name no key. */
export type SealedSecret = string & { readonly [sealed]: true };

/** A sealed secret none of the configured keys opens: the key that sealed it is gone, or it is not one of ours. */
export class UnreadableSecret extends Error {
	constructor() {
		super("The webhook's signing secret cannot be opened: no key of WEBHOOK_SECRET_KEY sealed it");
		this.name = "UnreadableSecret";
	}
}

/** What `opening` resolves to, or the {@link UnreadableSecret} it fails with; any other error is thrown. */
export const orUnreadable = <T>(opening: Promise<T>) =>
	opening.catch((error) => {
		if (error instanceof UnreadableSecret) return error;
		throw error;
	});

/** The storage format's version: names the cipher and how its key is derived, so either can change later. */
const version = "v2";
const minKeyLength = 32;
const encoder = new TextEncoder();

// `v1` is part of the derivation's label: keeping it keeps every key, and so every `v1.` value, as it was.
const deriveKey = async (material: string) =>
	crypto.subtle.deriveKey(
		{
			name: "HKDF",
			hash: "SHA-256",
			salt: new Uint8Array(),
			info: encoder.encode("petstore webhook secrets v1"),
		},
		await crypto.subtle.importKey("raw", encoder.encode(material), "HKDF", false, ["deriveKey"]),
		{ name: "AES-GCM", length: 256 },
		false,
		["encrypt", "decrypt"],
	);

/** A key's public name: 8 hex digits of a hash of it, enough to tell a handful of keys apart. */
const keyIdOf = async (material: string) =>
	hexOf(await sha256(`petstore webhook key id ${material}`)).slice(0, 8);

type Key = { id: string; key: CryptoKey };
export type KeyEnv = Pick<Env, "WEBHOOK_SECRET_KEY">;

// The keys, derived once per isolate and secret value.
let cached: { secret: string; keys: Promise<Key[]> } | undefined;
const keysOf = (env: KeyEnv) => {
	const secret = env.WEBHOOK_SECRET_KEY ?? "";
	const materials = secret
		.split(",")
		.map((material) => material.trim())
		.filter((material) => material !== "");
	if (materials.length === 0 || materials.some((material) => material.length < minKeyLength)) {
		throw new Error(
			`WEBHOOK_SECRET_KEY is not configured: it needs one or more comma-separated keys of at least ${minKeyLength} characters`,
		);
	}
	if (cached?.secret !== secret) {
		const keys = materials.map(async (material) => ({
			id: await keyIdOf(material),
			key: await deriveKey(material),
		}));
		cached = { secret, keys: Promise.all(keys) };
	}
	return cached.keys;
};

/** Encrypts a signing secret for storage under the newest key, with a fresh random IV. */
export const sealSecret = async (plain: string, env: KeyEnv): Promise<SealedSecret> => {
	const [newest] = await keysOf(env);
	const iv = crypto.getRandomValues(new Uint8Array(12));
	const ciphertext = await crypto.subtle.encrypt(
		{ name: "AES-GCM", iv },
		newest.key,
		encoder.encode(plain),
	);
	return `${version}.${newest.id}.${iv.toBase64()}.${new Uint8Array(ciphertext).toBase64()}` as SealedSecret;
};

/** A sealed secret's parts, and the keys that may have sealed it: the one it names, or any for `v1.`. */
const parse = (sealed: string, keys: Key[]) => {
	const [format, ...parts] = sealed.split(".");
	const [iv, ciphertext] = parts.slice(-2);
	if (format === "v1" && parts.length === 2) return { iv, ciphertext, candidates: keys };
	const named = keys.filter(({ id }) => id === parts[0]);
	if (format === version && parts.length === 3) return { iv, ciphertext, candidates: named };
	throw new UnreadableSecret();
};

/** Decrypts a stored signing secret; throws {@link UnreadableSecret} when no configured key opens it. */
export const openSecret = async (sealed: string, env: KeyEnv) => {
	const { iv, ciphertext, candidates } = parse(sealed, await keysOf(env));
	for (const { key } of candidates) {
		try {
			const plain = await crypto.subtle.decrypt(
				{ name: "AES-GCM", iv: Uint8Array.fromBase64(iv) },
				key,
				Uint8Array.fromBase64(ciphertext),
			);
			return new TextDecoder().decode(plain);
		} catch {
			// Another key, or a value that is not ours: the next candidate, if any, may open it.
		}
	}
	throw new UnreadableSecret();
};

/** A stored secret re-sealed under the newest key; undefined if that sealed it. Throws {@link UnreadableSecret}. */
export const resealSecret = async (sealed: string, env: KeyEnv) => {
	const [newest] = await keysOf(env);
	if (sealed.startsWith(`${version}.${newest.id}.`)) return undefined;
	return sealSecret(await openSecret(sealed, env), env);
};

/** A rotated-out secret, opened; none when no key opens it, since a rotation is how a client recovers from that. */
const openRetired = async (webhookId: number, sealed: string, env: KeyEnv) => {
	const opened = await orUnreadable(openSecret(sealed, env));
	if (typeof opened === "string") return [opened];
	log("warn", { webhookId, message: "a rotated-out secret cannot be opened and no longer signs" });
	return [];
};

/** The secrets that sign at `now`, opened, newest first; throws `UnreadableSecret` if the current one cannot. */
export const signingSecrets = async (config: EndpointConfig, env: KeyEnv, now: number) => {
	const [current, ...retired] = config.secrets;
	const newest = await openSecret(current.secret, env);
	const live = retired.filter(({ expiresAt }) => expiresAt === null || expiresAt > now);
	const opened = live.map(({ secret }) => openRetired(config.webhookId, secret, env));
	return [newest, ...(await Promise.all(opened)).flat()];
};
