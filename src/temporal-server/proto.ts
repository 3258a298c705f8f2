import type { google, temporal } from '@temporalio/proto';
import protoRoot from '@temporalio/proto';

/** The protobufjs root shipped with the SDK: generated message classes plus reflection data. */
export const root = protoRoot;
export const api = protoRoot.temporal.api;
export const enums = protoRoot.temporal.api.enums.v1;

export type IHistoryEvent = temporal.api.history.v1.IHistoryEvent;
export type IPayload = temporal.api.common.v1.IPayload;
export type IPayloads = temporal.api.common.v1.IPayloads;
export type IFailure = temporal.api.failure.v1.IFailure;
export type IHeader = temporal.api.common.v1.IHeader;
export type IMemo = temporal.api.common.v1.IMemo;
export type IRetryPolicy = temporal.api.common.v1.IRetryPolicy;
export type IDuration = { seconds?: LongLike | null; nanos?: number | null };
export type ITimestamp = IDuration;
export type ICommand = temporal.api.command.v1.ICommand;
export type IUserMetadata = temporal.api.sdk.v1.IUserMetadata;
export type IWorkflowQuery = temporal.api.query.v1.IWorkflowQuery;
export type IPollWorkflowTaskQueueResponse = temporal.api.workflowservice.v1.IPollWorkflowTaskQueueResponse;
export type IPollActivityTaskQueueResponse = temporal.api.workflowservice.v1.IPollActivityTaskQueueResponse;
export type { temporal };

/** int64 fields decode to Long objects; outgoing ones may be plain numbers. */
export type LongLike = number | { toNumber(): number };
type Long = NonNullable<temporal.api.history.v1.IHistoryEvent['eventId']>;

/**
 * protobufjs encodes plain numbers in int64 fields fine, but the SDK's typings insist on Long; this keeps
 * the typings honest about everything else.
 */
export function int64(value: number): Long {
  return value as unknown as Long;
}

export function toNumber(value: LongLike | null | undefined): number {
  if (value == null) return 0;
  return typeof value === 'number' ? value : value.toNumber();
}

export function durationToMs(d: IDuration | null | undefined): number {
  if (!d) return 0;
  return toNumber(d.seconds) * 1000 + Math.floor((d.nanos ?? 0) / 1_000_000);
}

export function msToDuration(ms: number): google.protobuf.IDuration {
  const whole = Math.floor(ms / 1000);
  return { seconds: int64(whole), nanos: Math.round((ms - whole * 1000) * 1_000_000) };
}

export const timestampToMs = durationToMs;
export const msToTimestamp = msToDuration;

type Instance<T> = T extends { prototype: infer R } ? R : never;
type WorkflowServiceTypes = typeof temporal.api.workflowservice.v1;
type OperatorServiceTypes = typeof temporal.api.operatorservice.v1;
type TestServiceTypes = typeof temporal.api.testservice.v1;
/** The decoded request message of a WorkflowService method, e.g. `WorkflowRequest<'StartWorkflowExecutionRequest'>`. */
export type WorkflowRequest<K extends keyof WorkflowServiceTypes> = Instance<WorkflowServiceTypes[K]>;
export type OperatorRequest<K extends keyof OperatorServiceTypes> = Instance<OperatorServiceTypes[K]>;
export type TestRequest<K extends keyof TestServiceTypes> = Instance<TestServiceTypes[K]>;

/** Minimal view of the protobufjs reflection API (the SDK's d.ts does not declare it). */
export interface ReflectedType {
  readonly fullName: string;
  decode(data: Uint8Array): object;
  encode(message: object): { finish(): Uint8Array };
}
interface ReflectedMethod {
  readonly name: string;
  readonly requestStream?: boolean;
  readonly responseStream?: boolean;
  resolvedRequestType: ReflectedType | null;
  resolvedResponseType: ReflectedType | null;
  resolve(): unknown;
}
export interface ReflectedService {
  readonly fullName: string;
  readonly methods: Record<string, ReflectedMethod>;
}
interface ReflectionRoot {
  lookupService(path: string): ReflectedService;
}

export function lookupService(fullName: string): ReflectedService {
  return (protoRoot as unknown as ReflectionRoot).lookupService(fullName);
}

export function encodeAny(
  typeName: string,
  type: ReflectedType,
  message: object,
): { type_url: string; value: Uint8Array } {
  return { type_url: `type.googleapis.com/${typeName}`, value: type.encode(message).finish() };
}

export function payloadsOrNull(p: IPayloads | null | undefined): IPayloads | null {
  return p?.payloads && p.payloads.length > 0 ? p : null;
}
