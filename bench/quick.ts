/**
 * `npm run bench -- --quick` (CI runs it, .ci/run): every bench, the on-request ones included, at a size that takes
 * a few seconds, so a change that breaks a bench fails in CI. The figures of a quick run are not judged (too small
 * and too noisy for ratio targets); only a bench that crashes or answers wrongly fails it.
 */
export const QUICK = process.argv.includes('--quick');

/** The full run's size, or the quick run's. */
export function sized<T>(full: T, quick: T): T {
  return QUICK ? quick : full;
}
