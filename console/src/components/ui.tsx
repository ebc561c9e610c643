import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { failureOf, type FieldLabels } from '../lib/errors.js';

/**
 * A server error, as the catalogue words it (the machine code stays in the DOM for tools, never in the
 * text); on a form, `labels` names a refused field as the form labels it.
 */
export function ErrorNote({ error, focus, labels }: { error: unknown; focus?: boolean; labels?: FieldLabels }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (focus && error) ref.current?.focus();
  }, [focus, error]);
  if (!error) return null;
  const f = failureOf(error, labels);
  return (
    <p className="error" role="alert" data-code={f.code} ref={ref} tabIndex={focus ? -1 : undefined}>
      {f.message}
    </p>
  );
}

/** What to do when there is nothing yet. */
export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children ? <p>{children}</p> : null}
    </div>
  );
}

export function Field(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  required?: boolean;
  multiline?: boolean;
  rows?: number;
  hint?: string;
  autoComplete?: string;
  placeholder?: string;
  /** A number field's smallest value; its values are whole numbers unless `step` says otherwise. */
  min?: number;
  step?: number | 'any';
}) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  const common = {
    id,
    value: props.value,
    required: props.required,
    placeholder: props.placeholder,
    'aria-describedby': hintId,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.multiline ? (
        <textarea {...common} rows={props.rows ?? 3} onChange={(e) => props.onChange(e.target.value)} />
      ) : (
        <input
          {...common}
          type={props.type ?? 'text'}
          autoComplete={props.autoComplete}
          {...(props.type === 'number' ? { min: props.min, step: props.step ?? 1 } : {})}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
      {props.hint ? (
        <small id={hintId} className="hint">
          {props.hint}
        </small>
      ) : null}
    </div>
  );
}

/** A secret shown once, with a copy button. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  const [copied, setCopied] = useState(false);
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="secret" role="status">
      <p>
        <strong id={id}>{label}</strong> — shown only now: copy it and keep it somewhere safe.
      </p>
      <div className="secret-row">
        <code aria-labelledby={id} data-testid="secret">
          {secret}
        </code>
        <button type="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}

export function Status({ value }: { value: string }) {
  return <span className={`badge badge-${value}`}>{value}</span>;
}
