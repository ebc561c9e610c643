import { createContext, useContext, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { failureOf, fieldMatches, type FieldLabels, type ServerFailure } from '../lib/errors.js';

/**
 * A form's last refusal, shared with its controls: the control the refusal names (`extensions.field`,
 * or a `ConsoleError`'s field) is marked `aria-invalid`, shows the message under itself (its
 * `aria-describedby`) and takes the focus; the form's `ErrorNote` then stays empty. A refusal of no
 * control of the form is said by the `ErrorNote`, which takes the focus instead. `labels` names the
 * fields in the message as the form labels them.
 */
interface FailureScope {
  error: unknown;
  failure: ServerFailure | null;
  labels?: FieldLabels;
  /** The API names of the controls on the form that say their own refusal. */
  fields: Set<string>;
}

const FormFailureContext = createContext<FailureScope | null>(null);

export function FormFailure({ error, labels, children }: { error: unknown; labels?: FieldLabels; children: ReactNode }) {
  const fields = useRef(new Set<string>()).current;
  const value = useMemo(() => ({ error, failure: error ? failureOf(error, labels) : null, labels, fields }), [error, labels, fields]);
  return <FormFailureContext.Provider value={value}>{children}</FormFailureContext.Provider>;
}

/**
 * The refusal of the control `name` (its API name) on the form around it: its message when the form's
 * last refusal names it (the control then takes the focus through `ref`), else null.
 */
export function useFieldFailure<E extends HTMLElement>(name: string | undefined): { ref: RefObject<E | null>; errorId: string; message: string | null } {
  const scope = useContext(FormFailureContext);
  const ref = useRef<E>(null);
  const errorId = useId();
  useLayoutEffect(() => {
    if (!scope || !name) return;
    scope.fields.add(name);
    return () => {
      scope.fields.delete(name);
    };
  }, [scope?.fields, name]);
  const mine = !!scope?.failure && !!name && fieldMatches(scope.failure.field, name);
  useEffect(() => {
    if (!mine) return;
    // A group of choices is not focusable itself: its first choice is.
    const el = ref.current;
    (el instanceof HTMLFieldSetElement ? el.querySelector<HTMLElement>('input, select, textarea') : el)?.focus();
  }, [mine, scope?.error]);
  return { ref, errorId, message: mine ? scope!.failure!.message : null };
}

/** A control's refusal, under it (`id` is in the control's `aria-describedby`). */
export function FieldError({ id, message }: { id: string; message: string | null }) {
  return message ? (
    <p id={id} className="error field-error">
      {message}
    </p>
  ) : null;
}

const describedBy = (...ids: (string | false | null | undefined)[]) => ids.filter(Boolean).join(' ') || undefined;

/**
 * A server error, as the catalogue words it (the machine code stays in the DOM for tools, never in the
 * text); on a form, `labels` names a refused field as the form labels it. Without `error`, inside a
 * `FormFailure`: the form's refusal, unless one of its controls says it, and it takes the focus.
 */
export function ErrorNote(props: { error?: unknown; focus?: boolean; labels?: FieldLabels }) {
  const { error, focus, labels } = props;
  const scope = useContext(FormFailureContext);
  // `error={query.error}` that is undefined for now is still an error of its own, not the form's.
  const fromScope = !('error' in props) && scope !== null;
  const shown = fromScope ? scope.error : error;
  const ref = useRef<HTMLParagraphElement>(null);
  const f = shown ? failureOf(shown, labels ?? (fromScope ? scope.labels : undefined)) : null;
  const claimed = fromScope && !!f?.field && [...scope.fields].some((n) => fieldMatches(f.field, n));
  const takesFocus = (focus ?? fromScope) && !claimed;
  useEffect(() => {
    if (takesFocus && shown) ref.current?.focus();
  }, [takesFocus, shown]);
  if (!f || claimed) return null;
  return (
    <p className="error" role="alert" data-code={f.code} ref={ref} tabIndex={takesFocus ? -1 : undefined}>
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
  /** The API's name for the field: a refusal that names it marks this field (see `FormFailure`). */
  name?: string;
  type?: string;
  required?: boolean;
  multiline?: boolean;
  rows?: number;
  hint?: string;
  autoComplete?: string;
  placeholder?: string;
  /** A number field's smallest and largest values; its values are whole numbers unless `step` says otherwise. */
  min?: number;
  max?: number;
  step?: number | 'any';
}) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  const refusal = useFieldFailure<HTMLInputElement & HTMLTextAreaElement>(props.name);
  const common = {
    id,
    name: props.name,
    value: props.value,
    required: props.required,
    placeholder: props.placeholder,
    ref: refusal.ref,
    'aria-invalid': refusal.message ? true : undefined,
    'aria-describedby': describedBy(refusal.message && refusal.errorId, hintId),
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
          {...(props.type === 'number' ? { min: props.min, max: props.max, step: props.step ?? 1 } : {})}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
      <FieldError id={refusal.errorId} message={refusal.message} />
      {props.hint ? (
        <small id={hintId} className="hint">
          {props.hint}
        </small>
      ) : null}
    </div>
  );
}

/** A list to choose one from, under its label; `name` as for `Field`. */
export function SelectField(props: { label: string; name?: string; value: string; onChange: (v: string) => void; children: ReactNode }) {
  const id = useId();
  const refusal = useFieldFailure<HTMLSelectElement>(props.name);
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        ref={refusal.ref}
        value={props.value}
        aria-invalid={refusal.message ? true : undefined}
        aria-describedby={refusal.message ? refusal.errorId : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      >
        {props.children}
      </select>
      <FieldError id={refusal.errorId} message={refusal.message} />
    </div>
  );
}

/**
 * A group of choices (checkboxes) under a legend, `name` being the API's name of the list it makes: a
 * refusal of that list is said under the legend, and the first choice takes the focus.
 */
export function ChoiceGroup({ name, legend, className, children }: { name: string; legend: ReactNode; className?: string; children: ReactNode }) {
  const refusal = useFieldFailure<HTMLFieldSetElement>(name);
  return (
    <fieldset ref={refusal.ref} className={className} aria-describedby={refusal.message ? refusal.errorId : undefined}>
      <legend>{legend}</legend>
      <FieldError id={refusal.errorId} message={refusal.message} />
      {children}
    </fieldset>
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
