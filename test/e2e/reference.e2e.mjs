// Opens /reference in headless Chromium against `wrangler dev`, with no network beyond 127.0.0.1, and checks
// what a reader sees. A screenshot lands in test-results/.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, startWranglerDev } from "../support/wrangler-dev.mjs";
import { chromium } from "../third-party/chromium.mjs";

const port = 8793;
const base = `http://127.0.0.1:${port}`;
let server;
let browser;
let page;
const thirdParty = [];
const problems = [];

beforeAll(async () => {
	server = await startWranglerDev({
		port,
		probe: "/reference",
		// The committed example, so that a clean clone needs no .dev.vars.
		envFile: ".dev.vars.example",
	});
	browser = await chromium.launch({
		executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
		args: [
			"--no-sandbox",
			"--disable-gpu",
			"--disable-quic",
			"--no-first-run",
			"--disable-background-networking",
			"--disable-component-update",
			"--disable-sync",
		],
	});
	const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
	// Nothing leaves the machine: any request to another host is refused and recorded.
	await context.route("**/*", (route) => {
		const url = route.request().url();
		if (new URL(url).hostname === "127.0.0.1") return route.continue();
		thirdParty.push(url);
		return route.abort();
	});
	page = await context.newPage();
	page.on("console", (message) => {
		if (message.type() === "error") problems.push(message.text());
	});
	page.on("pageerror", (error) => problems.push(String(error)));
	// Any request of the page that fails is a problem, whether or not the browser logs it.
	page.on("response", (response) => {
		if (response.status() >= 400) {
			problems.push(`${response.status()} ${response.url()}`);
		}
	});
	await page.addInitScript(() => {
		document.addEventListener("securitypolicyviolation", (event) => {
			console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
		});
	});
});

afterAll(async () => {
	await browser?.close();
	server?.stop();
});

const screenshot = async (name) => {
	await mkdir(join(root, "test-results"), { recursive: true });
	await page.screenshot({ path: join(root, `test-results/${name}.png`) });
};

/** Opens the reference afresh at an operation's anchor and returns that operation's section. */
const operation = async (anchor) => {
	// A new page load: no panel a previous test opened stays in front.
	await page.goto("about:blank");
	await page.goto(`${base}/reference#${anchor}`);
	const section = page.locator(`[id$="${anchor}"]`).first();
	await section.waitFor();
	return section;
};

describe("the reference page", () => {
	it("groups the tags under Pets, Store and Service, by their page titles", async () => {
		await page.goto(`${base}/reference`);
		for (const [group, tags] of [
			["pets", ["Pets for sale", "Pet categories"]],
			["store", ["Store orders", "Stock"]],
			["service", ["Service health"]],
		]) {
			const item = page.locator(`[data-sidebar-id$="/tag-group/${group}"]`);
			await item.waitFor();
			const children = await item.locator(":scope > ul > li > div > a").allInnerTexts();
			expect(children.map((text) => text.trim())).toEqual(tags);
		}
	});

	it("shows getPetById as deprecated, with its sunset date in words", async () => {
		const section = await operation("tag/animals/GET/pets/{petId}");
		expect(await section.locator(".badge").allInnerTexts()).toEqual(
			expect.arrayContaining(["Deprecated", "Sunset 30 June 2027"]),
		);
		expect(await section.textContent()).toContain("Sunset date: 30 June 2027");
		await screenshot("reference");
	});

	it("badges the beta and experimental operations", async () => {
		const beta = await operation("tag/inventory/GET/store/inventory");
		expect(await beta.locator(".badge").allInnerTexts()).toContain("Beta");
		const experimental = await operation("tag/inventory/PUT/store/inventory/{petId}");
		expect(await experimental.locator(".badge").allInnerTexts()).toContain("Experimental");
	});

	it("offers no try-it panel for listOrders, and one for placeOrder", async () => {
		const listOrders = await operation("tag/orders/GET/store/orders");
		expect(await listOrders.locator(".show-api-client-button").isVisible()).toBe(false);
		const placeOrder = await operation("tag/orders/POST/store/orders");
		expect(await placeOrder.locator(".show-api-client-button").isVisible()).toBe(true);
	});

	it("sends a try-it request to the API itself and shows the answer", async () => {
		const listPets = await operation("tag/animals/GET/pets");
		await listPets.locator(".show-api-client-button").click();
		const answered = page.waitForResponse(
			(response) => new URL(response.url()).pathname === "/pets",
		);
		await page.getByRole("button", { name: /^Send/ }).first().click();
		expect((await answered).status()).toBe(200);
		await screenshot("reference-try-it");
	});

	it("shows each operation's own curl and hono/client samples, calling the API that served them", async () => {
		const placeOrder = await operation("tag/orders/POST/store/orders");
		const card = placeOrder.locator('[class*="request-card"]').first();
		const curl = await card.locator("code").textContent();
		expect(curl).toContain(`curl -X POST '${base}/store/orders'`);
		expect(curl).toContain(`-H "Authorization: Bearer $API_TOKEN"`);
		await card.getByTestId("client-picker").click();
		const picker = page.locator('[id^="headlessui-popover-panel"]');
		await picker.getByText("hono/client", { exact: true }).click();
		expect(await card.locator("code").textContent()).toContain("api.store.orders.$post(");
		await screenshot("reference-code-samples");
	});

	it("says what each pet status means, and titles the tags as the document names them", async () => {
		const listPets = await operation("tag/animals/GET/pets");
		const text = await listPets.textContent();
		expect(text).toContain("For sale: orders can be placed while stock lasts.");
		expect(text).toContain("Reserved while a sale completes: new orders are refused.");
		const sidebar = page.locator('[data-sidebar-id$="/tag-group/store"]').first();
		expect(await sidebar.textContent()).toMatch(/Store orders[\s\S]*Stock/);
	});

	it("shows the webhook deliveries as callbacks of createWebhook", async () => {
		const createWebhook = await operation("tag/webhooks/POST/webhooks");
		const text = await createWebhook.textContent();
		expect(text).toContain("Callbacks");
		expect(text).toContain("{$request.body#/url}");
	});

	it("loaded nothing from a third party and broke no CSP rule", () => {
		expect(thirdParty).toEqual([]);
		expect(problems).toEqual([]);
	});
});
