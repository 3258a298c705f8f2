import { ApiKey } from './api-key.ts';
import { Company } from './company.ts';
import { User } from './user.ts';

export { ApiKey, Company, User };

/** Every entity the ORM knows. */
export const entities = [Company, User, ApiKey];

/** Entities owned by a tenant in one environment; the `tenant` filter applies to each of them. */
export const tenantOwnedEntities = [ApiKey];
