import { useEffect, useRef } from 'react';

/** A page's title (“<title> · DPP Console”) and its heading, focused on arrival so screen readers announce it. */
export function usePageHeading(title: string) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · DPP Console`;
    heading.current?.focus();
  }, [title]);
  return heading;
}
