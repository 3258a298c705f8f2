/** A field-level validation error inside a problem body. */
export interface FieldError {
  path: string;
  message: string;
  code: string;
}

/**
 * An error that becomes an RFC 9457 problem details response. `code` is stable and machine-readable;
 * `detail` is for humans and may change.
 */
export class Problem extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;

  constructor(
    status: number,
    code: string,
    detail: string,
    options: {
      title?: string;
      errors?: FieldError[];
      headers?: Record<string, string>;
      extra?: Record<string, unknown>;
    } = {},
  ) {
    super(detail);
    this.name = 'Problem';
    this.status = status;
    this.code = code;
    this.title = options.title ?? defaultTitle(status);
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

function defaultTitle(status: number): string {
  return TITLES[status] ?? 'Error';
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problemType(code: string): string {
  return `urn:problem-type:dpp:${code}`;
}

/** The JSON body of a problem response. */
export function problemBody(problem: Problem, requestId: string, instance: string): Record<string, unknown> {
  return {
    type: problemType(problem.code),
    title: problem.title,
    status: problem.status,
    detail: problem.message,
    instance,
    code: problem.code,
    requestId,
    success: false,
    ...(problem.errors ? { errors: problem.errors } : {}),
    ...problem.extra,
  };
}
