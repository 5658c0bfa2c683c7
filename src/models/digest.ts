/** The SHA-256 of `text`. */
export const sha256 = (text: string) =>
	crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));

/** A digest in hex. */
export const hexOf = (digest: ArrayBuffer) => new Uint8Array(digest).toHex();
