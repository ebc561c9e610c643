import { builder } from './builder.js';

/** What every stream's in-band error event carries: the native error body with its HTTP status. */
interface StreamErrorData {
  status: number;
  error: string;
  code?: string;
}

/**
 * A stream's error event as a GraphQL object type (chat, debates): `status`, `error`, `code`, and any
 * other detail of the native body as `details` (null when there is none).
 */
export function streamErrorEventRef<E extends { type: string; data: StreamErrorData }>(name: string) {
  return builder.objectRef<E>(name).implement({
    fields: (t) => ({
      type: t.string({ resolve: (e) => e.type }),
      status: t.int({ resolve: (e) => e.data.status }),
      error: t.string({ resolve: (e) => e.data.error }),
      code: t.string({ nullable: true, resolve: (e) => e.data.code ?? null }),
      details: t.field({
        type: 'JSON',
        nullable: true,
        resolve: (e) => {
          const { status: _s, error: _e, code: _c, ...details } = e.data;
          return Object.keys(details).length > 0 ? details : null;
        },
      }),
    }),
  });
}
