import { useCallback, useState } from 'react';
import type { DeliveryPage, WebhookDelivery } from '../api.ts';

/**
 * A list read page by page (cursor paging): `reload` starts again from the newest page, `more` appends the
 * next one. `fetchPage` must keep its identity while its inputs stay the same (useCallback).
 */
export function usePages(
  fetchPage: (after?: string) => Promise<DeliveryPage>,
  fail: (error: unknown) => void,
) {
  const [items, setItems] = useState<WebhookDelivery[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const page = await fetchPage();
      setItems(page.deliveries);
      setNext(page.nextCursor);
    } catch (caught) {
      fail(caught);
    } finally {
      setLoading(false);
    }
  }, [fetchPage, fail]);
  const more = async () => {
    if (!next) return;
    setLoading(true);
    try {
      const page = await fetchPage(next);
      setItems((current) => [...(current ?? []), ...page.deliveries]);
      setNext(page.nextCursor);
    } catch (caught) {
      fail(caught);
    } finally {
      setLoading(false);
    }
  };
  return { items, hasMore: next !== null, loading, reload, more };
}
