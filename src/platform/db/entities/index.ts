import { ApiKey } from './api-key.ts';
import { AssetTwin } from './asset-twin.ts';
import { Chip } from './chip.ts';
import { ChipKeys } from './chip-keys.ts';
import { Company } from './company.ts';
import { OutboxEvent } from './outbox-event.ts';
import { Passport } from './passport.ts';
import { SupplyChainEvent } from './supply-chain-event.ts';
import { ToolboxKey } from './toolbox-key.ts';
import { UsageRecord } from './usage-record.ts';
import { User } from './user.ts';
import { WebhookAttempt, WebhookDelivery } from './webhook-delivery.ts';
import { WebhookEndpoint } from './webhook-endpoint.ts';

export {
  ApiKey,
  AssetTwin,
  Chip,
  ChipKeys,
  Company,
  OutboxEvent,
  Passport,
  SupplyChainEvent,
  ToolboxKey,
  UsageRecord,
  User,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
};

/** Every entity the ORM knows. */
export const entities = [
  Company,
  User,
  ApiKey,
  Chip,
  ChipKeys,
  Passport,
  SupplyChainEvent,
  OutboxEvent,
  UsageRecord,
  WebhookEndpoint,
  WebhookDelivery,
  WebhookAttempt,
  AssetTwin,
  ToolboxKey,
];

/** Entities owned by a tenant in one environment; the `tenant` filter applies to each of them. */
export const tenantOwnedEntities = [
  ApiKey,
  Chip,
  ChipKeys,
  Passport,
  SupplyChainEvent,
  OutboxEvent,
  UsageRecord,
  WebhookEndpoint,
  WebhookDelivery,
  AssetTwin,
  ToolboxKey,
];
