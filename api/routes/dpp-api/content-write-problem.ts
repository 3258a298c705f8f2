import { ContentPreconditionFailed } from '../../../src/passport/content/content-etag.ts';
import { ContentInvalid } from '../../../src/passport/content/passport-content.ts';
import { Problem } from '../../problem.ts';
import { contentInvalidProblem } from './content-problem.ts';

/** A content write's error as every write route answers it: 412 precondition_failed, 400 content_invalid. */
export function contentWriteProblem(error: unknown): unknown {
  if (error instanceof ContentPreconditionFailed) {
    return new Problem(412, 'precondition_failed', error.message, {
      title: 'Precondition Failed',
      ...(error.currentEtag ? { headers: { ETag: error.currentEtag } } : {}),
      extra: { currentETag: error.currentEtag, currentVersion: error.currentVersion },
    });
  }
  if (error instanceof ContentInvalid) return contentInvalidProblem(error);
  return error;
}
