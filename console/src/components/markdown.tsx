import { useRef, useState, type ReactNode } from 'react';
import Markdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import type { Passage } from '../lib/chat-stream.js';
import { citeRefOf, linkCitations } from '../lib/citations.js';

/**
 * An answer rendered as Markdown (GitHub flavour: lists, tables, code), sanitised: raw HTML is never
 * rendered and rehype-sanitize keeps only GitHub's allow-list. Each `[n]` naming a cited passage becomes
 * a button opening it; each code block gets a copy button.
 */
export function AnswerMarkdown({ text, passages, onCite }: { text: string; passages: readonly Passage[]; onCite: (p: Passage) => void }) {
  const refs = new Map(passages.map((p) => [p.ref, p]));
  return (
    <div className="markdown">
      <Markdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeSanitize]}
        skipHtml
        components={{
          a: ({ href, children }) => {
            const ref = citeRefOf(href);
            const passage = ref === null ? undefined : refs.get(ref);
            if (passage) {
              return (
                <button type="button" className="cite" onClick={() => onCite(passage)} aria-label={`Open cited passage ${passage.ref}`}>
                  [{passage.ref}]
                </button>
              );
            }
            return (
              <a href={href} target="_blank" rel="noopener noreferrer">
                {children}
              </a>
            );
          },
          pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
        }}
      >
        {linkCitations(text, new Set(refs.keys()))}
      </Markdown>
    </div>
  );
}

function CodeBlock({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(ref.current?.textContent ?? '');
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="code-block">
      <pre ref={ref} tabIndex={0}>
        {children}
      </pre>
      <button type="button" className="copy-code" onClick={() => void copy()}>
        {copied ? 'Copied' : 'Copy code'}
      </button>
    </div>
  );
}
