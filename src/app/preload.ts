import { loadTagger } from '../lib/language/entities.js';
import { loadTokenizer } from '../modules/models/index.js';

/**
 * What the server loads before it listens: the token counter's rank table and the part-of-speech model of
 * the verifier, light and the built-in model (about half a second of CPU each). Loaded inside the first
 * request that needs them, either would hold every other request for that long.
 */
export function preloadBeforeListening(): void {
  loadTokenizer();
  loadTagger();
}
