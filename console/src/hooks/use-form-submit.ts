import { type FormEvent, useState } from 'react';
import { messageOf } from './use-failure.ts';

/**
 * A sign-in style form: busy from submit on (the page moves on after success), the error and a usable button again
 * after a failure.
 */
export function useFormSubmit(send: (form: FormData) => Promise<void>, fallback: string) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await send(form);
    } catch (caught) {
      setError(messageOf(caught, fallback));
      setBusy(false);
    }
  };
  return { error, busy, submit };
}
