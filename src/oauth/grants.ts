import type { AuthRequest, GrantSummary, OAuthHelpers } from "@cloudflare/workers-oauth-provider";

// What the library keeps of an agent's grants, as the consent page reads it. A grant's user is the credential that
// consented (`key-<id>`, or `root`), so a client's grants from one key are that key's.

/** Every grant of `userId`, a page at a time, as the library lists them. */
async function* grantsOf(api: OAuthHelpers, userId: string) {
	let cursor: string | undefined;
	do {
		const page = await api.listUserGrants(userId, { cursor });
		yield* page.items;
		cursor = page.cursor;
	} while (cursor);
}

/**
 * Whether a consent to `request` replaces `grant`, as `completeAuthorization` decides: the same client and resource,
 * and for a client id URL (one for every installation of the client) the same redirect URI.
 */
const replaces = (request: AuthRequest, grant: GrantSummary) =>
	grant.clientId === request.clientId &&
	grant.resource === request.resource &&
	(!/^https:/i.test(request.clientId) || grant.redirectUri === request.redirectUri);

/** The scopes of the grants of `userId` that a consent to `request` replaces: a step-up keeps them. */
export const scopesReplaced = async (api: OAuthHelpers, userId: string, request: AuthRequest) => {
	const held = new Set<string>();
	for await (const grant of grantsOf(api, userId)) {
		if (replaces(request, grant)) for (const scope of grant.scope) held.add(scope);
	}
	return held;
};
