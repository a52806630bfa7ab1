import { useEffect, useState } from 'react';

const read = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);

/** The page shown, from the location's hash (#/projects/prj_…): the server serves one page at /. */
export function useRoute(): string[] {
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const changed = () => setRoute(read());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

export const go = (...parts: string[]) => {
  location.hash = `#/${parts.map(encodeURIComponent).join('/')}`;
};
