import type { ContentInvalid } from '../../../src/passport/content/passport-content.ts';
import { Problem } from '../../problem.ts';

/** 400 content_invalid: one `errors` entry per offending field (RFC 6901 pointer into the data). */
export function contentInvalidProblem(error: ContentInvalid): Problem {
  return new Problem(400, 'content_invalid', error.message, {
    errors: error.violations.map((v) => ({ path: v.pointer, message: v.message, code: v.keyword })),
    extra: { contentSpecificationId: error.specificationId },
  });
}
