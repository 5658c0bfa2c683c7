import { createApp } from "./app";
import { scheduled } from "./scheduled";

export default {
	fetch: createApp().fetch,
	scheduled,
} satisfies ExportedHandler<Env>;
