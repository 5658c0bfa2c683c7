import { parse } from "tldts";
import { durations, limits } from "../models/limits";

// Where the API itself may send a request (webhook deliveries, OAuth client metadata): checked when a URL is
// stored, and before each request as its name resolves. Only local development may reach this machine (loopback).

const tooLong = `must be at most ${limits.webhookUrl} characters`;

/** The binding that decides where webhooks may point: "true" (local development) adds this machine. */
type WebhookUrlEnv = Pick<Env, "WEBHOOKS_ALLOW_LOOPBACK">;

const loopback = "a loopback host";

/** Whether a host refused for `why` is this machine, which local development (`env`) allows. */
const allowedLocally = (why: string | undefined, env: WebhookUrlEnv) =>
	env.WEBHOOKS_ALLOW_LOOPBACK === "true" && why === loopback;

/** Whether a host (as `URL.hostname` writes it) is this machine: `localhost` and its names, 127.0.0.0/8, `[::1]`. */
export const isLoopbackHost = (hostname: string) => hostRefusal(hostname) === loopback;

/** IPv4 ranges that are not public, by why ([RFC 6890](https://www.rfc-editor.org/rfc/rfc6890)). */
const ipv4Ranges: Record<string, string[]> = {
	"an unspecified address": ["0.0.0.0/8"],
	"a private address": ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"],
	"a shared (CGNAT) address": ["100.64.0.0/10"],
	[loopback]: ["127.0.0.0/8"],
	"a link-local address": ["169.254.0.0/16"],
	"a reserved address": ["192.0.0.0/24", "198.18.0.0/15", "240.0.0.0/4"],
	"a documentation address": ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"],
	"a reserved (6to4 relay anycast) address": ["192.88.99.0/24"],
	"a multicast address": ["224.0.0.0/4"],
};

/** IPv6 ranges that are not public, by why, first match wins; IPv4-embedding forms are read by {@link ipv6Refusal}. */
const ipv6Ranges: Record<string, string[]> = {
	"an unspecified address": ["::/128"],
	[loopback]: ["::1/128"],
	// The rest of ::/8 holds only the deprecated IPv4-compatible form.
	"a reserved address": ["::/8", "64:ff9b:1::/48", "100::/64", "2001::/23"],
	"a documentation address": ["2001:db8::/32"],
	"a unique-local address": ["fc00::/7"],
	"a link-local address": ["fe80::/10"],
	"a site-local address": ["fec0::/10"],
	"a multicast address": ["ff00::/8"],
};

/** IPv6 prefixes whose low bits carry an IPv4 address: `[cidr, the IPv4 address's lowest bit]`. */
const ipv4Embeddings: [cidr: string, shift: bigint][] = [
	["::ffff:0:0/96", 0n], // IPv4-mapped
	["64:ff9b::/96", 0n], // NAT64
	["2002::/16", 80n], // 6to4
];

const ipv4Bits = (text: string) =>
	text.split(".").reduce((n, octet) => (n << 8n) | BigInt(octet), 0n);

/** An IPv6 address as `new URL` serialises it (hex groups, `::` at most once), without brackets. */
const ipv6Bits = (text: string) => {
	const [head, tail] = text.split("::").map((part) => (part ? part.split(":") : []));
	const groups = tail
		? [...head, ...Array(8 - head.length - tail.length).fill("0"), ...tail]
		: head;
	return groups.reduce((n, group) => (n << 16n) | BigInt(`0x${group}`), 0n);
};

/** Whether `address` lies in `cidr`, an IPv4 or an IPv6 range as the address is. */
const inRange = (address: bigint, cidr: string) => {
	const [network, prefix] = cidr.split("/");
	const ipv6 = network.includes(":");
	const shift = (ipv6 ? 128n : 32n) - BigInt(prefix);
	return address >> shift === (ipv6 ? ipv6Bits(network) : ipv4Bits(network)) >> shift;
};

/** Why `address` is not public, if it lies in one of `ranges` (the first that holds it). */
const rangeRefusal = (address: bigint, ranges: Record<string, string[]>) =>
	Object.entries(ranges).find(([, cidrs]) => cidrs.some((cidr) => inRange(address, cidr)))?.[0];

const ipv6Refusal = (address: bigint) => {
	const embedding = ipv4Embeddings.find(([cidr]) => inRange(address, cidr));
	if (embedding) return rangeRefusal((address >> embedding[1]) & 0xffff_ffffn, ipv4Ranges);
	return rangeRefusal(address, ipv6Ranges);
};

/** Why a host (normalised by `new URL`) is not public, if not; a name must lie below a Public Suffix List suffix. */
const hostRefusal = (hostname: string) => {
	if (hostname.startsWith("[")) return ipv6Refusal(ipv6Bits(hostname.slice(1, -1)));
	// A host ending in a number is an IPv4 address, or `new URL` refuses it.
	if (/^[\d.]+$/.test(hostname)) return rangeRefusal(ipv4Bits(hostname), ipv4Ranges);
	// Every trailing dot: `localhost..` is localhost.
	const name = hostname.replace(/\.+$/, "");
	if (name === "localhost" || name.endsWith(".localhost")) return loopback;
	if (name.endsWith(".local")) return "a .local name";
	if (name.endsWith(".internal")) return "an .internal name";
	if (!name.includes(".")) return "a single-label name";
	// Never public, whatever the suffix list says (RFC 8375).
	if (/(^|\.)home\.arpa$/.test(name)) return "a home network name (.home.arpa)";
	const { isIcann, isPrivate, domain } = parse(name, { allowPrivateDomains: true });
	if (!(isIcann || isPrivate) || domain === null) return "a name without a public suffix";
};

/** Control characters (C0, DEL, C1) and whitespace, anywhere: `new URL` would silently drop or encode them. */
const unsafeCharacters = /[\s\p{Cc}]/u;

/** Why a URL the API would send to (a webhook's, an OAuth client id) may not be stored where `env` runs, if not. */
export const urlProblem = (text: string, env: WebhookUrlEnv) => {
	if (text.length > limits.webhookUrl) return tooLong;
	if (unsafeCharacters.test(text)) return "must not contain control characters or whitespace";
	if (!URL.canParse(text)) return "is not an absolute URL";
	const url = new URL(text);
	if (url.protocol !== "https:" && url.protocol !== "http:") return "must be https";
	if (url.username !== "" || url.password !== "") return "must not carry credentials";
	if (url.href.length > limits.webhookUrl) return `${tooLong} once normalised`;
	const refusal = hostRefusal(url.hostname);
	const local = allowedLocally(refusal, env);
	if (url.protocol === "http:" && !local) return "must be https";
	if (refusal && !local) return `must name a public host, not ${refusal}`;
	// Webhooks speak HTTPS on its port: another (22, 25, 6379…) would aim a delivery at another service.
	if (url.port !== "" && !local) return "must use the port of https, 443";
};

// Cloudflare documents no block on a Worker's `fetch` to a name that resolves to a private address, and a name can
// be repointed once stored: each delivery resolves it (DNS over HTTPS) and goes only if every address is public.

const resolver = "https://cloudflare-dns.com/dns-query";
const types = { A: 1, AAAA: 28 } as const;

/** What a name resolved to, kept for its records' TTL (between 1 second and 5 minutes). */
const resolved = new Map<string, { refusal: string | undefined; until: number }>();

type DnsAnswer = { Status: number; Answer?: { type: number; data: string; TTL: number }[] };

/** The name's records of `type`, per the resolver's JSON API. */
const lookup = async (name: string, type: keyof typeof types) => {
	const response = await fetch(`${resolver}?name=${encodeURIComponent(name)}&type=${type}`, {
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

/** Why a delivery to `url` may not go now, if not: a host not public, or a name that resolves to none or fails. */
export const destinationRefusal = async (url: string, env: WebhookUrlEnv, now: number) => {
	const name = new URL(url).hostname.replace(/\.+$/, "");
	// An address, or a loopback name, is where it points with no lookup: the rules in force decide it alone.
	if (name.startsWith("[") || /^[\d.]+$/.test(name) || isLoopbackHost(name)) {
		const why = hostRefusal(name);
		return allowedLocally(why, env) ? undefined : why && `${name} is ${why}; not sent`;
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
		.map(({ data }) => ({ data, why: addressRefusal(data) }))
		.find(({ why }) => why !== undefined && !allowedLocally(why, env));
	const refusal =
		answers.length === 0
			? `${name} does not resolve; not sent`
			: refused && `${name} resolves to ${refused.data}, ${refused.why}; not sent`;
	const ttl = Math.min(300, Math.max(1, Math.min(...answers.map((answer) => answer.TTL))));
	resolved.set(name, { refusal, until: now + ttl * 1000 });
	return refusal;
};
