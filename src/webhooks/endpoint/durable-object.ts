import { DurableObject } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { destinationRefusal } from "../../http/public-hosts";
import { durations } from "../../models/limits";
import type { DeliveryState } from "../../models/webhook";
import type { WebhookDelivery } from "../../models/webhook-delivery";
import type { EndpointConfig } from "../endpoint-config";
import { type Delivery, deliveryOf, type Replay, subscribedEventsAfter } from "../outbox/events";
import { nudgeOrWarn } from "../outbox/nudge";
import { orUnreadable, signingSecrets, UnreadableSecret } from "../secrets/secret-box";
import { type AttemptResult, attempt, nextAttemptAt, unanswered } from "./attempt";
import { disableWebhook } from "./disable";
import { type DueDelivery, type EndpointStore, endpointStore } from "./store";

/** Deliveries attempted per run of the alarm, and at once: a backlog is worked through run after run. */
const runSize = 100;
const inFlight = 20;
/** Events a replay reads from D1 per run. */
const replayPage = 100;
/** How soon a disabling that D1 could not record is tried again. */
const recordDisabledRetryMs = 30_000;

/** The key that marks the endpoint of a deleted webhook. */
const deleted = "deleted";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** One per webhook: delivers its events, each retried on its own schedule, so a failing endpoint delays no other. */
export class WebhookEndpoint extends DurableObject<Env> {
	private store!: EndpointStore;

	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		ctx.blockConcurrencyWhile(async () => {
			this.store = await endpointStore(ctx.storage);
		});
	}

	override async alarm() {
		await this.deliverDue(Date.now());
	}

	/** Takes new events from the sweep: sends them, or, while the webhook is disabled, holds them (logged `held`). */
	async handOff(config: EndpointConfig, deliveries: Delivery[], now: number) {
		if (await this.ctx.storage.get(deleted)) return;
		this.store.configure(config);
		const disabled = this.store.endpoint()?.disabled === true;
		this.store.hold(deliveries, now, disabled);
		if (disabled) this.store.prune(now);
		await this.schedule(now);
	}

	/** Applies a change of the webhook; `disabled` pauses or resumes it. Answers the delivery state. */
	async configure(config: EndpointConfig, now: number, disabled?: boolean) {
		this.store.configure(config, disabled);
		await this.schedule(now);
		return this.deliveryState();
	}

	/** Applies the row the every-minute sweep read, if newer: how a change whose `configure` call failed arrives. */
	async catchUp(config: EndpointConfig, disabled: boolean, now: number) {
		const held = this.store.endpoint();
		if (held === undefined || held.version >= config.version) return;
		await this.configure(config, now, held.disabled === disabled ? undefined : disabled);
	}

	/** Re-sends the events the webhook receives after event `after`, read from D1 a page per run. */
	async replay(config: EndpointConfig, replay: Replay, now: number) {
		if (await this.ctx.storage.get(deleted)) return;
		this.store.configure(config);
		this.store.startReplay(replay);
		await this.schedule(now);
	}

	/** A replay page, then up to {@link runSize} due deliveries (none once disabled or deleted), and the next alarm. */
	async deliverDue(now: number) {
		const endpoint = this.store.endpoint();
		if (endpoint === undefined) return;
		if (endpoint.disabled) return this.recordDisabled(now);
		await this.continueReplay(now);
		const due = this.store.due(now, runSize);
		const secrets = await orUnreadable(signingSecrets(endpoint, this.env, now));
		// A name that resolves where no delivery may go fails every attempt, as a secret no key opens does: the
		// webhook shows it, and is disabled in time.
		const refusal =
			due.length > 0 && !(secrets instanceof UnreadableSecret)
				? await destinationRefusal(endpoint.url, this.env, now)
				: undefined;
		const started = Date.now();
		const clock = () => now + (Date.now() - started);
		/** Whether the endpoint may still be sent to: `updateWebhook` or `deleteWebhook` may have answered meanwhile. */
		const open = () => this.store.endpoint()?.disabled === false;
		let disable = false;
		// A small pool: at most `inFlight` attempts at once, none started once the endpoint is to be disabled.
		await Promise.all(
			Array.from({ length: Math.min(inFlight, due.length) }, async () => {
				for (let next = due.shift(); next && !disable && open(); next = due.shift()) {
					const attemptedAt = clock();
					const result =
						refusal !== undefined
							? unanswered(refusal)
							: secrets instanceof UnreadableSecret
								? unanswered(secrets.message)
								: await attempt(endpoint.url, secrets, next, attemptedAt);
					if (this.store.endpoint() === undefined) break;
					disable = this.settle(next, result, attemptedAt, clock()) || disable;
				}
			}),
		);
		if (this.store.endpoint() === undefined) return;
		const finished = clock();
		this.store.prune(finished);
		if (disable) {
			this.store.disable();
			await this.recordDisabled(finished);
		}
		await this.schedule(finished);
	}

	/** Records an attempt's result; true when it disables the endpoint (410 Gone, or failing for too long). */
	private settle(due: DueDelivery, result: AttemptResult, attemptedAt: number, endedAt: number) {
		if (result.ok) {
			this.store.record(due, result, "delivered", null, attemptedAt);
			return false;
		}
		const failingSince = this.store.endpoint()?.failingSince ?? attemptedAt;
		const disable =
			result.status === 410 || attemptedAt - failingSince >= durations.failingEndpoint;
		const next = nextAttemptAt(due.attempts + 1, endedAt, result.retryAfterMs);
		const outcome = next === null ? "exhausted" : disable ? "disabled" : "retrying";
		this.store.record(due, result, outcome, next, attemptedAt);
		return disable;
	}

	/** Records a disabling in D1 (the flag and its `webhook.disabled` event, in one batch) unless it is already. */
	private async recordDisabled(now: number) {
		const endpoint = this.store.endpoint();
		if (!endpoint || endpoint.disableRecorded) return;
		await disableWebhook(drizzle(this.env.DB), endpoint.webhookId, this.deliveryState(), now);
		this.store.disableRecorded();
		// Its event reaches subscribers as fast as a write's: a nudge that fails leaves it for the Cron's sweep.
		await nudgeOrWarn(this.env.WEBHOOK_QUEUE, { webhookId: endpoint.webhookId });
	}

	private async continueReplay(now: number) {
		const replay = this.store.replay();
		if (replay === undefined) return;
		const page = await subscribedEventsAfter(drizzle(this.env.DB), replay, replayPage);
		this.store.requeue(page.map(deliveryOf), now);
		this.store.advanceReplay(page.length === replayPage ? page[page.length - 1].id : undefined);
	}

	/** Sets the alarm for the next due delivery (now, mid-replay); while disabled, none once D1 has recorded it. */
	private async schedule(now: number) {
		const endpoint = this.store.endpoint();
		if (endpoint?.disabled && !endpoint.disableRecorded) {
			return this.ctx.storage.setAlarm(now + recordDisabledRetryMs);
		}
		const next = this.store.replay() ? now : this.store.nextDue();
		if (!endpoint || endpoint.disabled || next === null) return this.ctx.storage.deleteAlarm();
		return this.ctx.storage.setAlarm(Math.max(next, now));
	}

	/** Failures since the last success, and the last attempt's status and time. */
	deliveryState(): DeliveryState {
		const endpoint = this.store.endpoint();
		return {
			failures: endpoint?.failures ?? 0,
			lastStatus: endpoint?.lastStatus ?? null,
			lastAttemptAt: iso(endpoint?.lastAttemptAt ?? null),
		};
	}

	/** A page of the attempt log, newest first, before attempt `before` (0: from the newest). */
	deliveries(before: number, limit: number): WebhookDelivery[] {
		return this.store
			.attempts(before, limit)
			.map((logged) => ({
				...logged,
				nextAttemptAt: iso(logged.nextAttemptAt),
				attemptedAt: new Date(logged.attemptedAt).toISOString(),
			}));
	}

	/** Forgets everything but that the webhook is gone (ids are never reused), so a late sweep cannot revive it. */
	async forget() {
		await this.ctx.storage.deleteAll();
		await this.ctx.storage.put(deleted, true);
		this.store = await endpointStore(this.ctx.storage);
	}
}
