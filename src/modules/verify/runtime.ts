import { SentenceFactsCache, type Verifier } from './engine.js';

/**
 * Process-wide state of the verify module: the indexes of the collections checked lately, so that a text
 * checked against a large collection does not read and index all of it again. An index is keyed by the
 * workspace, the collections, the text's language (the stemmer it was built with) and the state of the
 * collections' ready sources (ids and update times): a source added, re-ingested or removed makes a new
 * key, and the old index ages out. At most `MAX_INDEXES`, least recently used first out.
 */
export const MAX_INDEXES = 4;

export class CollectionIndexes {
  private readonly entries = new Map<string, Promise<Verifier>>();

  /** The index under `key`, built by `build` when absent (concurrent requests wait for one build). */
  async get(key: string, build: () => Promise<Verifier>): Promise<Verifier> {
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    } else {
      entry = build();
      this.entries.set(key, entry);
      // A failed or stopped build is not kept.
      entry.catch(() => this.entries.get(key) === entry && this.entries.delete(key));
      while (this.entries.size > MAX_INDEXES) this.entries.delete(this.entries.keys().next().value!);
    }
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }
}

export interface VerifyRuntime {
  readonly collectionIndexes: CollectionIndexes;
  /** The facts of passage sentences verified lately (`SentenceFactsCache`, bounded). */
  readonly sentenceFacts: SentenceFactsCache;
}

export function createVerifyRuntime(): VerifyRuntime {
  return { collectionIndexes: new CollectionIndexes(), sentenceFacts: new SentenceFactsCache() };
}

declare module '../../core/deps.js' {
  interface Deps {
    /** The verify module's process state (indexes of collections, facts of passage sentences). */
    readonly verify: VerifyRuntime;
  }
}
