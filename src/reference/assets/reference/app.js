// Renders /doc with Scalar, through Scalar's own configuration: the document's lifecycle markers become badges
// Scalar shows natively, and operations marked x-hideTryItPanel lose their try-it button.

// Scalar bundles zod; without this it probes `new Function("")`, which the page's CSP (rightly) refuses.
globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

const methods = ["get", "put", "post", "delete", "patch"];
const betaBadge = { name: "Beta", position: "before", color: "#1763a6" };
const sunsetColor = "#b91c1c";

const inWords = (day) =>
	new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", {
		timeZone: "UTC",
		day: "numeric",
		month: "long",
		year: "numeric",
	});

/** Scalar's slug for a tag, which its operation anchors start with. */
const slug = (text) =>
	text
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
		.replace(/[\s_-]+/g, "-")
		.replace(/^-+|-+$/g, "");

/** Maps x-stability and x-deprecated-sunset onto Scalar's badges; returns the operations without try-it. */
const prepare = (doc) => {
	const withoutTryIt = [];
	for (const [path, item] of Object.entries(doc.paths)) {
		for (const method of methods) {
			const operation = item[method];
			if (!operation) continue;
			const badges = [];
			if (operation["x-stability"] === "beta") badges.push(betaBadge);
			if (operation["x-stability"] === "experimental") {
				operation["x-scalar-stability"] = "experimental";
			}
			const sunset = operation["x-deprecated-sunset"];
			if (operation.deprecated && sunset) {
				badges.push({ name: `Sunset ${inWords(sunset)}`, position: "after", color: sunsetColor });
				operation.description = `**Deprecated.** Sunset date: **${inWords(sunset)}**.\n\n${operation.description ?? ""}`;
			}
			if (badges.length > 0) operation["x-badges"] = badges;
			if (operation["x-hideTryItPanel"]) {
				withoutTryIt.push({
					method,
					path,
					anchor: `tag/${slug(operation.tags[0])}/${method.toUpperCase()}${path}`,
				});
			}
		}
	}
	return withoutTryIt;
};

const mount = (doc) => {
	const withoutTryIt = prepare(doc);
	const hidden = withoutTryIt.map(
		({ anchor }) =>
			`[id$="${anchor}"] .show-api-client-button, [role=dialog] [data-sidebar-id$="${anchor}"]`,
	);
	globalThis.Scalar.createApiReference("#app", {
		content: doc,
		// Nothing from a third party: no web fonts, no telemetry, no hosted extras.
		withDefaultFonts: false,
		telemetry: false,
		hideClientButton: true,
		showDeveloperTools: "never",
		agent: { disabled: true },
		mcp: { disabled: true },
		documentDownloadType: "none",
		customCss: hidden.length > 0 ? `${hidden.join(",\n")} { display: none !important; }` : "",
		// The try-it dialog lists every operation in its sidebar: refuse to send the hidden ones from there too.
		onBeforeRequest: ({ request }) => {
			const { pathname } = new URL(request.url, location.href);
			const method = request.method.toLowerCase();
			if (withoutTryIt.some((hidden) => hidden.method === method && hidden.path === pathname)) {
				throw new Error(`Try it is not offered for ${request.method} ${pathname}.`);
			}
		},
	});
};

document.addEventListener("DOMContentLoaded", async () => {
	try {
		const response = await fetch("/doc", { headers: { accept: "application/json" } });
		if (!response.ok) throw new Error(`GET /doc answered ${response.status}`);
		mount(await response.json());
	} catch (error) {
		const message = document.createElement("p");
		message.textContent = `The reference could not load (${error.message}); the document is at /doc.`;
		document.getElementById("app").append(message);
	}
});
