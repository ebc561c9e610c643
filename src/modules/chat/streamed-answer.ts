import type { ChatStreamEvent, EventSink } from './chat-events.js';
import type { StoredCitation } from './chat.entity.js';

/** What a streamed turn has shown so far: the answer's text and the passages it was given. */
export class StreamedAnswer {
  text = '';
  citations: StoredCitation[] | null = null;

  /** The sink the turn writes to: it records what passes, then hands it on. */
  tap(sink: EventSink): EventSink {
    return (event: ChatStreamEvent) => {
      if (event.type === 'token') this.text += event.data.delta;
      else if (event.type === 'knowledge') this.citations = event.data;
      sink(event);
    };
  }
}
