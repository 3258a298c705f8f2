import type { MikroORM } from '@mikro-orm/postgresql';
import type { StripeGateway } from '../../src/adapters/payments/stripe-gateway.ts';
import type { WorkflowGateway } from '../../src/adapters/temporal/start.ts';
import type { Config } from '../../src/platform/config/config.ts';
import type { SecretBox } from '../../src/platform/secret-box.ts';
import type { ReadinessCheck, ReadinessWarnings } from './health.ts';

/** What route handlers may use beside the request's scoped entity manager. */
export interface RouteDeps {
  /** Unscoped: only for routes that authenticate otherwise than with a tenant's credential (signed webhooks). */
  orm: MikroORM;
  config: Config;
  secretBox: SecretBox;
  readiness: Record<string, ReadinessCheck>;
  /** Detail /readyz shows without turning unready (a low or empty chain signer). */
  readinessWarnings?: ReadinessWarnings | undefined;
  /** Temporal client and task queues; absent when the API runs without a workflow service. */
  workflows: WorkflowGateway | undefined;
  /** Stripe per environment (stripe-mock in development and tests). */
  payments: StripeGateway;
}
