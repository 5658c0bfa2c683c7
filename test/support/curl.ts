/**
 * Splits a shell command line into words, honouring single and double quotes and `\` line continuations, and
 * expanding `$NAME` outside single quotes from `variables` (an unset one expands to nothing, as in a shell).
 */
const words = (line: string, variables: Record<string, string>) => {
	const expand = (text: string) =>
		text.replace(/\$(\w+)/g, (_, name: string) => variables[name] ?? "");
	return [...line.replaceAll("\\\n", " ").matchAll(/'([^']*)'|"((?:\\.|[^"])*)"|(\S+)/g)].map(
		([, single, double, bare]) => single ?? expand(double ?? bare),
	);
};

/** The request a curl command line sends, its shell variables taken from `variables`. */
export const requestOf = (command: string, variables: Record<string, string> = {}) => {
	const args = words(command, variables).slice(1);
	const init: { method: string; headers: Record<string, string>; body?: string } = {
		method: "GET",
		headers: {},
	};
	let url = "";
	for (let i = 0; i < args.length; i++) {
		const arg = args[i];
		if (arg === "-X") init.method = args[++i];
		else if (arg === "-H") {
			const [name, ...value] = args[++i].split(":");
			init.headers[name.trim()] = value.join(":").trim();
		} else if (arg === "-d") init.body = args[++i];
		else if (!arg.startsWith("-")) url = arg;
	}
	return new Request(url, init);
};
