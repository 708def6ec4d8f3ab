// Pages are addressed after '#' (#/queue, #/case/{community}/{caseId}, ...): the server serves one
// index.html and a reload keeps the page.
import { useEffect, useState } from 'react';

/** The address's parts after '#', read at once by the entry to start a page's calls. */
export const routeParts = (): string[] =>
  location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);

export function useRoute(): string[] {
  const [parts, setParts] = useState(routeParts);
  useEffect(() => {
    const onChange = () => setParts(routeParts());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return parts;
}

export const href = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;
