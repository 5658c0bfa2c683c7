/**
 * `members` as a namespace the bundle holds: asking it for any other member throws `missing(member)`, so
 * code that needs more fails at once, with the fix in the message.
 */
export const only = <T extends object>(
	members: T,
	missing: (member: string) => string,
): T =>
	new Proxy(members, {
		get(target, key, receiver) {
			if (typeof key === "string" && !Object.hasOwn(target, key)) {
				throw new Error(missing(key));
			}
			return Reflect.get(target, key, receiver);
		},
	});
