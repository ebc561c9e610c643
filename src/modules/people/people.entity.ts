import { defineEntity, p } from '@mikro-orm/core';

/** A signed-in person's session: the cookie holds the token, the row only its SHA-256. */
const PersonSessionSchema = defineEntity({
  name: 'PersonSession',
  tableName: 'person_session',
  properties: {
    id: p.string().primary(),
    tokenHash: p.string(),
    userId: p.string(),
    workspaceId: p.string(),
    createdAt: p.datetime(),
    /** Moved forward by use (at most once a minute); the idle period counts from here. */
    lastSeenAt: p.datetime(),
    /** Absolute end: created + the absolute period, never moved. */
    expiresAt: p.datetime(),
    /** Signed out, password changed, person disabled. */
    closedAt: p.datetime().nullable(),
  },
});
export class PersonSession extends PersonSessionSchema.class {}
PersonSessionSchema.setClass(PersonSession);

export const TOKEN_KINDS = ['invite', 'reset'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** A single-use link (invitation, password reset): the link holds the token, the row only its SHA-256. */
const PersonTokenSchema = defineEntity({
  name: 'PersonToken',
  tableName: 'person_token',
  properties: {
    id: p.string().primary(),
    tokenHash: p.string(),
    userId: p.string(),
    kind: p.string().$type<TokenKind>(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
export class PersonToken extends PersonTokenSchema.class {}
PersonTokenSchema.setClass(PersonToken);

/** Failed sign-ins per account or per address in the current window (throttle.ts, SQL only). */
const SignInThrottleSchema = defineEntity({
  name: 'SignInThrottle',
  tableName: 'sign_in_throttle',
  properties: {
    bucket: p.string().primary(),
    failures: p.integer(),
    windowStart: p.datetime(),
  },
});
export class SignInThrottle extends SignInThrottleSchema.class {}
SignInThrottleSchema.setClass(SignInThrottle);

export const peopleEntities = [PersonSession, PersonToken, SignInThrottle];
