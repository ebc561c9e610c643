import type { CompletionResult, StreamEvent } from '../../src/modules/models/provider.js';

/** Drains a provider stream into its deltas and final result. */
export async function collect(events: AsyncIterable<StreamEvent>): Promise<{ deltas: string[]; result: CompletionResult }> {
  const deltas: string[] = [];
  let result: CompletionResult | undefined;
  for await (const event of events) {
    if (event.type === 'delta') deltas.push(event.text);
    else result = event.result;
  }
  if (!result) throw new Error('stream ended without a done event');
  return { deltas, result };
}
