/**
 * What the person reads when something fails: the catalogue's message as the server sent it (GraphQL
 * `errors[0].message`, or the native `{ error }` of the /auth routes), never a stack or a raw body.
 */
export interface ServerFailure {
  message: string;
  code?: string;
  /** The refused field as the service names it (`extensions.field`: `rounds`, `input.name`), when one is. */
  field?: string;
}

interface GraphQLErrorLike {
  message: string;
  extensions?: Record<string, unknown>;
}

interface CombinedErrorLike {
  graphQLErrors?: GraphQLErrorLike[];
  networkError?: Error | null;
  response?: { status?: number } | null;
}

export class ConsoleError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    /** A refusal made in the console itself, of one field of its form (by the API's name for it). */
    readonly field?: string,
  ) {
    super(message);
  }
}

export const NETWORK_MESSAGE = 'The service cannot be reached. Check your connection and try again.';

/**
 * A form's fields in words, by the API's name for each: `{ monthlyQuestionLimit: 'Questions per month' }`.
 * A refusal naming one of them (`extensions.field`) reads with the label the person sees on the form.
 */
export type FieldLabels = Readonly<Record<string, string>>;

/**
 * The service words a refused field by its API name ("monthlyQuestionLimit must be a positive whole
 * number", "input.name: Required"); on a form, that name becomes the field's label.
 */
export function withFieldLabel(message: string, field: unknown, labels: FieldLabels | undefined): string {
  if (!labels || typeof field !== 'string' || field === '') return message;
  // The whole path first, then its parts from the last: `input.name` is `name`, `agentIds.1` is `agentIds`.
  const names = [field, ...field.split('.').reverse()].filter((n) => labels[n]);
  if (names.length === 0) return message;
  for (const name of [field, ...names]) {
    if (message.startsWith(name) && /^(\s|:|$)/.test(message.slice(name.length))) return (labels[name] ?? labels[names[0]]) + message.slice(name.length);
  }
  return message;
}

/**
 * Whether a refusal of `field` (`input.name`, `agentIds.1`) is one of the form's control named `name`
 * (`name`, `agentIds`): the whole path, or one of its parts.
 */
export function fieldMatches(field: string | undefined, name: string): boolean {
  if (!field) return false;
  return field === name || field.split('.').includes(name);
}

export function failureOf(err: unknown, labels?: FieldLabels): ServerFailure {
  if (err instanceof ConsoleError) {
    return { message: withFieldLabel(err.message, err.field, labels), ...(err.code ? { code: err.code } : {}), ...(err.field ? { field: err.field } : {}) };
  }
  if (err && typeof err === 'object') {
    const combined = err as CombinedErrorLike;
    const first = combined.graphQLErrors?.[0];
    if (first) {
      const code = typeof first.extensions?.code === 'string' ? first.extensions.code : undefined;
      const field = typeof first.extensions?.field === 'string' && first.extensions.field !== '' ? first.extensions.field : undefined;
      return { message: withFieldLabel(first.message, field, labels), ...(code ? { code } : {}), ...(field ? { field } : {}) };
    }
    if (combined.networkError || 'networkError' in combined) return { message: NETWORK_MESSAGE };
  }
  return { message: 'Something went wrong. Try again.' };
}

/** A failure already read (a stream's), as an error a form can show again with its labels. */
export const asError = (f: ServerFailure): ConsoleError => new ConsoleError(f.message, f.code, f.field);

export const messageOf = (err: unknown, labels?: FieldLabels): string => failureOf(err, labels).message;

/** The session is over (or never was): the console shows the sign-in form. */
export const isSignedOut = (err: unknown): boolean => failureOf(err).code === 'unauthorized';

/** Reads a native error body `{ error, code? }` (the /auth routes) into a ConsoleError. */
export function nativeError(status: number, body: unknown): ConsoleError {
  if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') {
    const b = body as { error: string; code?: unknown; field?: unknown };
    const field = typeof b.field === 'string' && b.field !== '' ? b.field : undefined;
    return new ConsoleError(b.error, typeof b.code === 'string' ? b.code : status === 401 ? 'unauthorized' : undefined, field);
  }
  return new ConsoleError(status >= 500 ? 'The service failed to answer. Try again in a moment.' : `Request refused (${status}).`);
}

/** A 429's wait in words, from its retry-after (seconds): "Try again in 15 minutes." */
export function waitMessage(retryAfter: string | null | undefined): string {
  const head = 'Too many attempts.';
  const seconds = Number(retryAfter);
  if (!retryAfter || !Number.isFinite(seconds) || seconds <= 0) return `${head} Wait a few minutes, then try again.`;
  if (seconds < 60) return `${head} Try again in ${Math.ceil(seconds)} second${Math.ceil(seconds) === 1 ? '' : 's'}.`;
  const minutes = Math.ceil(seconds / 60);
  return `${head} Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
