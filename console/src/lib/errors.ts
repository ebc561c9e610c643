/**
 * What the person reads when something fails: the catalogue's message as the server sent it (GraphQL
 * `errors[0].message`, or the native `{ error }` of the /auth routes), never a stack or a raw body.
 */
export interface ServerFailure {
  message: string;
  code?: string;
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
  const last = field.split('.').pop() ?? field;
  const label = labels[field] ?? labels[last];
  if (!label) return message;
  for (const name of [field, last]) {
    if (message.startsWith(name) && /^(\s|:|$)/.test(message.slice(name.length))) return label + message.slice(name.length);
  }
  return message;
}

export function failureOf(err: unknown, labels?: FieldLabels): ServerFailure {
  if (err instanceof ConsoleError) return { message: err.message, ...(err.code ? { code: err.code } : {}) };
  if (err && typeof err === 'object') {
    const combined = err as CombinedErrorLike;
    const first = combined.graphQLErrors?.[0];
    if (first) {
      const code = typeof first.extensions?.code === 'string' ? first.extensions.code : undefined;
      return { message: withFieldLabel(first.message, first.extensions?.field, labels), ...(code ? { code } : {}) };
    }
    if (combined.networkError || 'networkError' in combined) return { message: NETWORK_MESSAGE };
  }
  return { message: 'Something went wrong. Try again.' };
}

export const messageOf = (err: unknown, labels?: FieldLabels): string => failureOf(err, labels).message;

/** The session is over (or never was): the console shows the sign-in form. */
export const isSignedOut = (err: unknown): boolean => failureOf(err).code === 'unauthorized';

/** Reads a native error body `{ error, code? }` (the /auth routes) into a ConsoleError. */
export function nativeError(status: number, body: unknown): ConsoleError {
  if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') {
    const b = body as { error: string; code?: unknown };
    return new ConsoleError(b.error, typeof b.code === 'string' ? b.code : status === 401 ? 'unauthorized' : undefined);
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
