/** The languages the verifier reads (its own module, so that text.ts and lemmas.ts both use it without a circle). */
export type Language = 'en' | 'fr';
