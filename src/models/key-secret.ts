// An API key's secret: `pst_`, 32 base62 characters of randomness, and their CRC32 in 6 base62 characters, so a
// secret scanner recognises one offline and a mistyped key is refused before any database read.

import { hexOf, sha256 } from "./digest";

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const prefix = "pst_";
const randomLength = 32;
const checksumLength = 6;

/** The shape of a key: what the bearer check reads as a key rather than as a root token. */
export const keyPattern = new RegExp(`^${prefix}[0-9A-Za-z]{${randomLength + checksumLength}}$`);

/** The checksum of a key's randomness: its CRC-32 (IEEE 802.3, as zlib computes it), in base62. */
const checksumOf = (random: string) => {
	let crc = 0xffffffff;
	for (const byte of new TextEncoder().encode(random)) {
		crc ^= byte;
		for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
	}
	let rest = (crc ^ 0xffffffff) >>> 0;
	let text = "";
	for (; rest > 0; rest = Math.floor(rest / 62)) text = base62[rest % 62] + text;
	return text.padStart(checksumLength, "0");
};

/** A new secret: uniform base62 characters (bytes past the last multiple of 62 are drawn again). */
export const newKeySecret = () => {
	let random = "";
	while (random.length < randomLength) {
		const [byte] = crypto.getRandomValues(new Uint8Array(1));
		if (byte < 248) random += base62[byte % 62];
	}
	return `${prefix}${random}${checksumOf(random)}`;
};

/** Whether `secret` is a key whose checksum holds. */
export const isKeySecret = (secret: string) => {
	if (!keyPattern.test(secret)) return false;
	const random = secret.slice(prefix.length, prefix.length + randomLength);
	return secret.endsWith(checksumOf(random));
};

/** How keys are told apart in lists: the prefix and the first 4 characters of the randomness. */
export const startOf = (secret: string) => secret.slice(0, prefix.length + 4);

/** The SHA-256 of a secret, in hex: all that is stored of it. */
export const keyHash = async (secret: string) => hexOf(await sha256(secret));
