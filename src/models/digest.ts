export const sha256 = (text: string) =>
	crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));

export const hexOf = (digest: ArrayBuffer) => new Uint8Array(digest).toHex();
