import type { Environment } from '../../platform/config/config.ts';
import type { StoredBody } from './stored-body.ts';

/** One request of a company as the log stores it (everything already redacted). */
export interface RequestLogEntry {
  companyId: string;
  environment: Environment;
  createdAt: Date;
  method: string;
  path: string;
  query: Record<string, unknown> | null;
  status: number;
  durationMs: number;
  requestId: string;
  apiKeyId: string | null;
  userId: number | null;
  oauthClientId: string | null;
  clientAddress: string | null;
  userAgent: string | null;
  requestHeaders: Record<string, string>;
  requestBody: StoredBody;
  responseBody: StoredBody;
  /** The problem's code of an error answer. */
  errorCode: string | null;
}
