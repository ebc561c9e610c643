import { useEffect, useRef } from 'react';
import type { Passage } from '../lib/chat-stream.js';
import { splitCitations } from '../lib/citations.js';

/** An answer's text with each `[n]` that names a cited passage as a button opening it. */
export function CitedText({ text, passages, onCite }: { text: string; passages: readonly Passage[]; onCite: (p: Passage) => void }) {
  const refs = new Map(passages.map((p) => [p.ref, p]));
  return (
    <>
      {splitCitations(text, new Set(refs.keys())).map((piece, i) =>
        piece.kind === 'text' ? (
          <span key={i}>{piece.text}</span>
        ) : (
          <button key={i} type="button" className="cite" onClick={() => onCite(refs.get(piece.ref)!)} aria-label={`Open cited passage ${piece.ref}`}>
            [{piece.ref}]
          </button>
        ),
      )}
    </>
  );
}

/** The cited passage in a modal dialog that gives the focus back when it closes. */
export function PassageDialog({ passage, onClose }: { passage: Passage | null; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (passage && !d.open) d.showModal();
    if (!passage && d.open) d.close();
  }, [passage]);
  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby="passage-title">
      {passage ? (
        <>
          <h2 id="passage-title">
            [{passage.ref}] {passage.sourceName}
          </h2>
          <p className="hint">
            {passage.dossierName ? `${passage.dossierName} · ` : ''}
            {passage.section ? `${passage.section} · ` : ''}page {passage.page}
          </p>
          <blockquote>{passage.chunkPreview}</blockquote>
          <button type="button" onClick={onClose} autoFocus>
            Close
          </button>
        </>
      ) : null}
    </dialog>
  );
}
