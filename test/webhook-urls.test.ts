import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { destinationRefusal } from "../src/http/public-hosts";
import { api, expectError, send, testApp } from "./support/api";

/** A deployment: `WEBHOOKS_ALLOW_LOOPBACK` is "false" there (wrangler.toml). */
const deployed = testApp({ bindings: { WEBHOOKS_ALLOW_LOOPBACK: "false" } });

const createDeployed = (url: string) =>
	deployed.send("POST", "/webhooks", { url, events: ["pet.created"] });

/** Local development (the test bindings set `WEBHOOKS_ALLOW_LOOPBACK`), every answer checked against the document. */
const createLocally = (url: string) => send("POST", "/webhooks", { url, events: ["pet.created"] });

const expectRefused = async (response: Response, message: string) => {
	const error = await expectError(response, 400, "validation_error");
	expect(error.details).toEqual([{ path: "body.url", message }]);
};

/** Creates the webhook, answers its URL as answered, read back and stored, then deletes it (at most 20 exist). */
const urlsOf = async (response: Response) => {
	expect(response.status).toBe(201);
	const { id, url } = await response.json<{ id: number; url: string }>();
	const read = await (await api(`/webhooks/${id}`)).json<{ url: string }>();
	const stored = await env.DB.prepare("SELECT url FROM webhooks WHERE id = ?")
		.bind(id)
		.first<string>("url");
	expect((await api(`/webhooks/${id}`, { method: "DELETE" })).status).toBe(204);
	return { answered: url, read: read.url, stored };
};

const notPublic = (what: string) => `must name a public host, not ${what}`;

describe("webhook URLs: refused everywhere", () => {
	it.each([
		["a private IPv4 address", "https://10.0.0.1/hook", "a private address"],
		["a private 172.16/12 address", "https://172.31.255.1/", "a private address"],
		["a private 192.168/16 address", "https://192.168.1.10/", "a private address"],
		[
			"the cloud metadata address",
			"https://169.254.169.254/latest/meta-data/",
			"a link-local address",
		],
		["a CGNAT address", "https://100.64.0.1/", "a shared (CGNAT) address"],
		["the unspecified IPv4 address", "https://0.0.0.0/", "an unspecified address"],
		["the unspecified IPv6 address", "https://[::]/", "an unspecified address"],
		["a unique-local IPv6 address", "https://[fd00::1]/", "a unique-local address"],
		["a link-local IPv6 address", "https://[fe80::1]/", "a link-local address"],
		["an IPv4-mapped private address", "https://[::ffff:10.0.0.1]/", "a private address"],
		["an IPv4-mapped address in hex", "https://[::ffff:a9fe:a9fe]/", "a link-local address"],
		["an IPv4-mapped unspecified address", "https://[::ffff:0.0.0.0]/", "an unspecified address"],
		["a NAT64 form of a private address", "https://[64:ff9b::10.0.0.1]/", "a private address"],
		["a 6to4 form of a private address", "https://[2002:c0a8:101::1]/", "a private address"],
		["a private address in decimal", "https://167772161/", "a private address"],
		["a private address in octal", "https://012.0.0.1/", "a private address"],
		["a link-local address in hex", "https://0xa9.0xfe.0xa9.0xfe/", "a link-local address"],
		["a multicast address", "https://224.0.0.251/", "a multicast address"],
		["the broadcast address", "https://255.255.255.255/", "a reserved address"],
		[
			"a .internal name",
			"https://metadata.google.internal/computeMetadata/v1/",
			"an .internal name",
		],
		[
			"a .internal name with a trailing dot",
			"https://metadata.google.internal./",
			"an .internal name",
		],
		["a .local name", "https://printer.local/hook", "a .local name"],
		["a .local name in capitals", "https://PRINTER.LOCAL/hook", "a .local name"],
		["a single-label name", "https://intranet/hook", "a single-label name"],
		["a .local name with two trailing dots", "https://printer.local../hook", "a .local name"],
		["a home network name", "https://nas.home.arpa/hook", "a home network name (.home.arpa)"],
		[
			"localhost.localdomain",
			"https://localhost.localdomain/hook",
			"a name without a public suffix",
		],
		["a reserved test name", "https://shop.example/hook", "a name without a public suffix"],
		["a public suffix itself", "https://co.uk/hook", "a name without a public suffix"],
		[
			"the 6to4 relay anycast range",
			"https://192.88.99.1/hook",
			"a reserved (6to4 relay anycast) address",
		],
	])("refuses %s: %s", async (_, url, what) => {
		await expectRefused(await createLocally(url), notPublic(what));
		await expectRefused(await createDeployed(url), notPublic(what));
	});

	it.each([
		["a leading space", " https://shop.example.com/hook"],
		["a trailing space", "https://shop.example.com/hook "],
		["a trailing CR/LF", "https://shop.example.com/hook\r\n"],
		["a leading LF", "\nhttps://shop.example.com/hook"],
		["a tab inside", "https://shop.example.com/ho\tok"],
		["a NUL inside", "https://shop.example.com/ho\u0000ok"],
		["a DEL inside", "https://shop.example.com/hook\u007f"],
		["a C1 control", "https://shop.example.com/hook\u0085"],
		["a space inside", "https://shop.example.com/my hook"],
	])("refuses %s", async (_, url) => {
		await expectRefused(
			await createLocally(url),
			"must not contain control characters or whitespace",
		);
	});

	it("refuses a user name without a password", async () => {
		await expectRefused(
			await createLocally("https://user@shop.example.com/hook"),
			"must not carry credentials",
		);
	});

	it("refuses 2,049 characters and takes 2,048", async () => {
		const path = "/".padEnd(2048 - "https://shop.example.com".length, "a");
		const longest = `https://shop.example.com${path}`;
		expect(longest).toHaveLength(2048);
		expect((await urlsOf(await createDeployed(longest))).stored).toBe(longest);
		const error = await expectError(await createLocally(`${longest}a`), 400, "validation_error");
		expect(error.details?.map((detail) => detail.path)).toEqual(["body.url"]);
	});

	it("refuses a URL that grows past 2,048 characters once normalised", async () => {
		const url = `https://shop.example.com/${"é".repeat(1000)}`;
		expect(url.length).toBeLessThanOrEqual(2048);
		await expectRefused(
			await createLocally(url),
			"must be at most 2048 characters once normalised",
		);
	});
});

describe("webhook URLs: the port of https", () => {
	it.each([
		"https://shop.example.com:22/hook",
		"https://shop.example.com:0/",
		"https://shop.example.com:8443/",
	])(
		"refuses %s, deployed and locally: a delivery is aimed at the https service only",
		async (url) => {
			for (const create of [createDeployed, createLocally]) {
				await expectRefused(await create(url), "must use the port of https, 443");
			}
		},
	);
});

describe("webhook URLs: this machine only in local development", () => {
	it.each([
		["127.0.0.1", "https://127.0.0.1:9999/hook", "https://127.0.0.1:9999/hook"],
		["127.0.0.1 in decimal", "https://2130706433/hook", "https://127.0.0.1/hook"],
		["127.0.0.1 in hex", "https://0x7f.1/hook", "https://127.0.0.1/hook"],
		["another address of 127/8", "https://127.1.2.3/hook", "https://127.1.2.3/hook"],
		["::1", "https://[0:0:0:0:0:0:0:1]/hook", "https://[::1]/hook"],
		["::1 IPv4-mapped", "https://[::ffff:127.0.0.1]/hook", "https://[::ffff:7f00:1]/hook"],
		["localhost", "https://LocalHost/hook", "https://localhost/hook"],
		["localhost with a trailing dot", "https://localhost./hook", "https://localhost./hook"],
		["localhost with two trailing dots", "https://localhost../hook", "https://localhost../hook"],
		["a .localhost name", "https://api.localhost/hook", "https://api.localhost/hook"],
	])("refuses %s when deployed, and takes it locally, normalised", async (_, url, normalised) => {
		await expectRefused(await createDeployed(url), notPublic("a loopback host"));
		expect(await urlsOf(await createLocally(url))).toEqual({
			answered: normalised,
			read: normalised,
			stored: normalised,
		});
	});

	it("takes plain http to this machine only locally, and to no other host anywhere", async () => {
		const url = "http://127.0.0.1:9999/hook";
		await expectRefused(await createDeployed(url), "must be https");
		expect((await urlsOf(await createLocally(url))).stored).toBe(url);
		await expectRefused(await createLocally("http://shop.example.com/hook"), "must be https");
		await expectRefused(await createLocally("http://10.0.0.1/"), "must be https");
	});
});

describe("webhook URLs: checked again when a delivery is sent, under the rules in force then", () => {
	const deployedRules = { WEBHOOKS_ALLOW_LOOPBACK: "false" };
	const localRules = { WEBHOOKS_ALLOW_LOOPBACK: "true" };

	it.each([
		["https://127.0.0.1/", "127.0.0.1"],
		["https://[::1]/", "[::1]"],
		["https://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]"],
		["http://localhost:8787/", "localhost"],
	])(
		"sends nothing to %s when deployed, saying why, and sends to it locally",
		async (url, host) => {
			expect(await destinationRefusal(url, deployedRules, 0)).toBe(
				`${host} is a loopback host; not sent`,
			);
			expect(await destinationRefusal(url, localRules, 0)).toBeUndefined();
		},
	);

	it("sends nothing to a private address, whatever the rules", async () => {
		for (const rules of [deployedRules, localRules]) {
			expect(await destinationRefusal("https://10.0.0.1/", rules, 0)).toBe(
				"10.0.0.1 is a private address; not sent",
			);
		}
	});
});

describe("webhook URLs: normalised", () => {
	it("stores and answers the URL as `new URL(url).href`", async () => {
		for (const [url, normalised] of [
			[
				"HTTPS://Shop.Example.COM:443/a/../hooks/petstore?x=1",
				"https://shop.example.com/hooks/petstore?x=1",
			],
			["https://bücher.example.com/hook", "https://xn--bcher-kva.example.com/hook"],
			["https://shop.example.com", "https://shop.example.com/"],
			["https://[::ffff:8.8.8.8]/hook", "https://[::ffff:808:808]/hook"],
		]) {
			expect(await urlsOf(await createDeployed(url))).toEqual({
				answered: normalised,
				read: normalised,
				stored: normalised,
			});
		}
	});
});
