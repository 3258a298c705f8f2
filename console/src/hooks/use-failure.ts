import { useCallback, useState } from 'react';

/** The text a failed call shows: the API's message, or the fallback for anything else. */
export const messageOf = (caught: unknown, fallback: string) =>
  caught instanceof Error ? caught.message : fallback;

/** A page's error line: a failure shows its message unless it ended the session (the app then shows sign-in). */
export function useFailure(onSessionEnded: (error: unknown) => boolean) {
  const [error, setError] = useState<string | null>(null);
  const fail = useCallback(
    (caught: unknown) => {
      if (!onSessionEnded(caught)) setError(messageOf(caught, 'Something went wrong.'));
    },
    [onSessionEnded],
  );
  return { error, setError, fail };
}
