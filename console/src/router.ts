import { useEffect, useState } from 'react';

/** The console's own paths under /console, kept in the address bar (history API; the server serves index.html). */
export const BASE = '/console';

export function currentPath(): string {
  const path = window.location.pathname.slice(BASE.length) || '/';
  return path.replace(/\/+$/, '') || '/';
}

export function navigate(path: string): void {
  window.history.pushState(null, '', `${BASE}${path === '/' ? '/' : path}`);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function usePath(): string {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const onPop = () => setPath(currentPath());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  return path;
}

/** A link inside the console: a real <a href> (keyboard, new tab) that navigates without reloading. */
export function linkHandler(path: string) {
  return (event: { preventDefault: () => void; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean }) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(path);
  };
}
