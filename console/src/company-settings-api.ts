import { callTagged, type Environment } from './api.ts';

/** The company's product settings in one environment (GET|PATCH /v1/company/settings). */
export interface CompanySettings {
  defaultConformityUrl: string | null;
  warrantyMonths: number;
  economicOperatorId: string | null;
  facilityId: string | null;
}

/** The settings with the ETag they were served under: a save names it, so it never writes over a newer change. */
export interface TaggedSettings {
  settings: CompanySettings;
  etag: string | null;
}

const tagged = ({ body, etag }: { body: { settings: CompanySettings }; etag: string | null }) => ({
  settings: body.settings,
  etag,
});

export const companySettings = {
  get: async (env: Environment): Promise<TaggedSettings> =>
    tagged(await callTagged(env, 'GET', '/v1/company/settings')),
  /** Changes the settings only while they are still those `etag` names (412 precondition_failed otherwise). */
  save: async (env: Environment, settings: CompanySettings, etag: string | null): Promise<TaggedSettings> =>
    tagged(await callTagged(env, 'PATCH', '/v1/company/settings', settings, etag ?? undefined)),
};
