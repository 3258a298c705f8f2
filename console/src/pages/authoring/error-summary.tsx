import { forwardRef } from 'react';
import { fieldId, labelAt } from './schema-form.tsx';

/** The fields a save found wrong, each a link to its field (focused when a save is refused). */
export const ErrorSummary = forwardRef<
  HTMLDivElement,
  { errors: ReadonlyMap<string, string>; schema: Record<string, unknown> }
>(function ErrorSummary({ errors, schema }, ref) {
  if (errors.size === 0) return null;
  return (
    <div
      className="error-summary"
      ref={ref}
      tabIndex={-1}
      role="alert"
      aria-labelledby="error-summary-heading"
    >
      <h2 id="error-summary-heading">
        {errors.size === 1 ? 'One field needs attention' : `${errors.size} fields need attention`}
      </h2>
      <ul>
        {[...errors].map(([pointer, message]) => (
          <li key={pointer}>
            <a href={`#${fieldId(pointer === '/' ? '' : pointer)}`}>
              {labelAt(schema, pointer)}: {message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
});
