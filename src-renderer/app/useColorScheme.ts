/** Follows the OS light/dark preference. */
import { useSyncExternalStore } from 'react';

const query =
  typeof window !== 'undefined' ? window.matchMedia('(prefers-color-scheme: dark)') : null;

export function useColorScheme(): 'dark' | 'light' {
  return useSyncExternalStore(
    (notify) => {
      query?.addEventListener('change', notify);
      return () => query?.removeEventListener('change', notify);
    },
    () => (query?.matches ? 'dark' : 'light'),
  );
}
