import type { AuthRequest, GrantSummary, OAuthHelpers } from "@cloudflare/workers-oauth-provider";

// A grant's user is the credential that consented (`key-<id>`, or `root`): a key's grants are its own.

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
	let cursor: string | undefined;
	do {
		const page = await api.listUserGrants(userId, { cursor });
		for (const grant of page.items.filter((grant) => replaces(request, grant))) {
			for (const scope of grant.scope) held.add(scope);
		}
		cursor = page.cursor;
	} while (cursor);
	return held;
};
