import { createContext, useContext } from 'react';
import type { Client } from 'graphql-sse';

export const SseContext = createContext<Client | null>(null);

export function useSse(): Client {
  const sse = useContext(SseContext);
  if (!sse) throw new Error('SseContext missing');
  return sse;
}
