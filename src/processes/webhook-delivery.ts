import type { Environment } from '../platform/config/config.ts';

/**
 * Types shared by the delivery workflow (`webhook:{eventId}:{endpointId}`), its activities and the code
 * that starts it. Types only: the workflow bundle may import this file.
 */

/** `dispatch`: first delivery of an event; `replay`: a fresh schedule for a closed (e.g. dead) delivery. */
export type DeliveryMode = 'dispatch' | 'replay';

/** The delivery row's identity, as the dispatcher and the endpoint API know it. */
export interface DeliveryRef {
  id: string;
  eventId: string;
  endpointId: string;
  companyId: string;
  environment: Environment;
  eventType: string;
}

export interface WebhookDeliveryInput {
  delivery: DeliveryRef;
  mode: DeliveryMode;
  /**
   * The dispatcher made attempt 1 itself and it failed: the run continues the schedule from the wait before
   * attempt 2 (unset when the run makes attempt 1 itself, as a dead-letter replay does).
   */
  firstAttemptMade?: boolean;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The spec's retry policy: the wait before each of the six attempts. Attempts fall at +0, +5 m, +20 m,
 * +1 h 20 m, +5 h 20 m and +17 h 20 m after the first; a sixth failure dead-letters the delivery.
 */
export const ATTEMPT_DELAYS_MS = [0, 5 * MINUTE, 15 * MINUTE, HOUR, 4 * HOUR, 12 * HOUR] as const;

/** What `openWebhookDelivery` found: the row to record into and how many attempts earlier runs made. */
export interface OpenedDelivery {
  deliveryId: string;
  attemptsBefore: number;
  /** Set when a dispatch finds the delivery already closed (a run before this one finished it). */
  closedAs?: Exclude<DeliveryStatus, 'pending'>;
}

export interface AttemptInput {
  delivery: DeliveryRef;
  deliveryId: string;
  /** Attempt number of the delivery (continues after earlier runs, so `(delivery, attempt)` is unique). */
  attempt: number;
  /** How long after this attempt the next one follows if it fails; null when this is the run's last. */
  nextAttemptInMs: number | null;
}

/**
 * - `succeeded`: 2xx; `failed`: anything else, retried on the schedule (any other status, 410 Gone
 *   included, as the spec says; a timeout; a network error);
 * - `stopped`: the endpoint is deleted or disabled (by its owner);
 * - `undeliverable`: the event cannot ever be sent (e.g. larger than the payload limit).
 */
export type AttemptResult = 'succeeded' | 'failed' | 'stopped' | 'undeliverable';

export interface AttemptOutcome {
  result: AttemptResult;
  /** Whether this counts as an attempt (recorded); false when a check ended the delivery before sending. */
  attempted: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'dead' | 'stopped';

/** Answer of the `deliveryProgress` query. */
export interface DeliveryProgress {
  status: DeliveryStatus;
  /** `attempting` while an attempt runs, `waiting` between attempts, `done` once closed. */
  phase: 'opening' | 'attempting' | 'waiting' | 'done';
  /** Attempts made by this run. */
  attemptsThisRun: number;
  /** The delivery's latest attempt number (across runs). */
  lastAttempt: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
}

export interface WebhookDeliveryResult {
  status: Exclude<DeliveryStatus, 'pending'>;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
}

/** The delivery workflow: its type name (as the worker registers it) and its signature. */
export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDelivery';
export type WebhookDeliveryWorkflow = (input: WebhookDeliveryInput) => Promise<WebhookDeliveryResult>;
