// Pages are addressed after '#' (#/queue, #/case/{community}/{caseId}, ...): the server serves one
// index.html and a reload keeps the page.
import { useEffect, useState } from 'react';

export function useRoute(): string[] {
  const read = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent); // prettier-ignore
  const [parts, setParts] = useState(read);
  useEffect(() => {
    const onChange = () => setParts(read());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return parts;
}

export const href = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;
