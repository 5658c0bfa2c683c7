import { durations } from "../models/limits";
import { hostRefusal, isLoopbackHost, loopback } from "./url";

// Cloudflare documents no block on a Worker's `fetch` to a name that resolves to a private address (it refuses IP
// literals, and `connect()` private networks, but says nothing of names), so a delivery resolves the name itself,
// over DNS over HTTPS, and is sent only when every address is public. The URL's rules (src/webhooks/url.ts) were
// checked when it was stored, but a name can be pointed anywhere after that, and the rules themselves can change
// (loopback is allowed only in local development): every delivery checks its host again under the rules in force.

const resolver = "https://cloudflare-dns.com/dns-query";
const types = { A: 1, AAAA: 28 } as const;

/** What a name resolved to, kept for its records' TTL (between 1 second and 5 minutes). */
const resolved = new Map<string, { refusal: string | undefined; until: number }>();

type DnsAnswer = { Status: number; Answer?: { type: number; data: string; TTL: number }[] };

/** The name's records of `type`, per the resolver's JSON API. */
const lookup = async (name: string, type: keyof typeof types) => {
	const query = `${resolver}?name=${encodeURIComponent(name)}&type=${type}`;
	const response = await fetch(query, {
		headers: { accept: "application/dns-json" },
		signal: AbortSignal.timeout(durations.deliveryTimeout),
	});
	if (!response.ok) throw new Error(`the DNS resolver answered ${response.status}`);
	const { Status, Answer = [] } = await response.json<DnsAnswer>();
	// 0: an answer (maybe empty); 3: no such name. Anything else is the resolver failing.
	if (Status !== 0 && Status !== 3) throw new Error(`the DNS resolver failed (RCODE ${Status})`);
	return Answer.filter((answer) => answer.type === types[type]);
};

const addressRefusal = (address: string) => {
	const url = URL.parse(`https://${address.includes(":") ? `[${address}]` : address}/`);
	return url ? hostRefusal(url.hostname) : "an address that is not one";
};

/**
 * Why a delivery to `url` may not go now, under the rules `env` puts in force, if not: its host is not public, or
 * its name resolves to nothing, to an address that is not, or fails.
 */
export const destinationRefusal = async (
	url: string,
	env: Pick<Env, "WEBHOOKS_ALLOW_LOOPBACK">,
	now: number,
) => {
	const name = new URL(url).hostname.replace(/\.+$/, "");
	/** A refusal that stands where `env` runs: only local development lets this machine through. */
	const standing = (why: string | undefined) =>
		env.WEBHOOKS_ALLOW_LOOPBACK === "true" && why === loopback ? undefined : why;
	// An address, or a loopback name, is where it points with no lookup: the rules in force decide it alone.
	if (name.startsWith("[") || /^[\d.]+$/.test(name) || isLoopbackHost(name)) {
		const why = standing(hostRefusal(name));
		return why && `${name} is ${why}; not sent`;
	}
	const kept = resolved.get(name);
	if (kept && kept.until > now) return kept.refusal;
	let answers: Awaited<ReturnType<typeof lookup>>;
	try {
		answers = (await Promise.all([lookup(name, "A"), lookup(name, "AAAA")])).flat();
	} catch (error) {
		return `${name} could not be resolved (${error instanceof Error ? error.message : error}); not sent`;
	}
	const refused = answers
		.map(({ data }) => ({ data, why: standing(addressRefusal(data)) }))
		.find(({ why }) => why !== undefined);
	const refusal =
		answers.length === 0
			? `${name} does not resolve; not sent`
			: refused && `${name} resolves to ${refused.data}, ${refused.why}; not sent`;
	const ttl = Math.min(300, Math.max(1, Math.min(...answers.map((answer) => answer.TTL))));
	resolved.set(name, { refusal, until: now + ttl * 1000 });
	return refusal;
};
