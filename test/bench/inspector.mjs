// A Chrome DevTools protocol session with the Worker under `wrangler dev`, through wrangler's inspector.

/**
 * Connects to the Worker's isolate through the inspector `wrangler dev --inspector-port <port>` opens. Wrangler
 * accepts only a loopback `Origin`. `send` resolves with a command's result; `on` collects an event's params.
 */
export const inspect = async (port) => {
	const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, {
		headers: { origin: "http://127.0.0.1" },
	});
	let lastId = 0;
	const pending = new Map();
	const listeners = new Map();
	socket.onmessage = ({ data }) => {
		const message = JSON.parse(data);
		const reply = pending.get(message.id);
		if (reply) {
			pending.delete(message.id);
			if (message.error) {
				reply.reject(new Error(`${reply.method}: ${message.error.message}`));
			} else reply.resolve(message.result);
		}
		listeners.get(message.method)?.(message.params);
	};
	await new Promise((resolve, reject) => {
		socket.onopen = resolve;
		socket.onerror = () => reject(new Error(`no inspector on 127.0.0.1:${port}`));
	});
	return {
		send: (method, params = {}) =>
			new Promise((resolve, reject) => {
				const id = ++lastId;
				pending.set(id, { method, resolve, reject });
				socket.send(JSON.stringify({ id, method, params }));
			}),
		on: (method, listener) => listeners.set(method, listener),
		close: () => socket.close(),
	};
};
