import type { ContentSpecification } from '../content-specification.ts';
import { BATTERY_1_0_0_POLICY } from './battery-1.0.0-policy.ts';
import { BATTERY_1_0_0_SCHEMA } from './battery-1.0.0-schema.ts';

/**
 * The battery pack, version 1.0.0: the EU battery passport's data (Regulation (EU) 2023/1542 Art. 77 and
 * Annex XIII) in the seven clusters of the Battery Pass data model v1.2.0, attributes after DIN DKE SPEC 99100.
 * Our own names and structure; where the value goes in the IDTA-02035 submodels: src/passport/aas/battery/.
 * Documentation, field by field with its access tier: docs/battery-passport.md. The schema is in
 * battery-1.0.0-schema.ts, each field's Annex XIII tier in battery-1.0.0-policy.ts.
 */
export const BATTERY_1_0_0: ContentSpecification = {
  id: 'urn:dpp-service:spec:battery:1.0.0',
  group: 'battery',
  version: '1.0.0',
  title: 'EU battery passport (Regulation (EU) 2023/1542 Annex XIII; Battery Pass data model 1.2.0 clusters)',
  schema: BATTERY_1_0_0_SCHEMA,
  policy: BATTERY_1_0_0_POLICY,
};
