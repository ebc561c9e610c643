import { Migration } from '@mikro-orm/migrations';

/**
 * People (issue 12): users get a sign-in e-mail (unique whatever its case), a password hash, a role and
 * a state; sessions and single-use links (invitation, password reset) are stored by the SHA-256 of their
 * token only; failed sign-ins are counted per account and per address in PostgreSQL, so the throttle
 * holds across processes. Existing users keep working for their keys: the oldest user of each
 * workspace becomes its admin, the others members; all are active (none can sign in without an e-mail).
 */
export class Migration20261123100000 extends Migration {
  override name = 'Migration20261123100000';

  override up(): void {
    this.addSql(`alter table app_user
      add column email text null,
      add column password_hash text null,
      add column role varchar(16) not null default 'member',
      add column state varchar(16) not null default 'active'`);
    this.addSql(`update app_user u set role = 'admin'
      where u.id = (select f.id from app_user f where f.workspace_id = u.workspace_id order by f.created_at, f.id limit 1)`);
    this.addSql(`create unique index app_user_email_unique on app_user (lower(email)) where email is not null`);
    this.addSql(`create table person_session (
      id varchar(64) primary key,
      token_hash varchar(64) not null unique,
      user_id varchar(64) not null references app_user(id) on delete cascade deferrable initially deferred,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      expires_at timestamptz not null,
      closed_at timestamptz null
    )`);
    this.addSql(`create index person_session_user_idx on person_session(user_id) where closed_at is null`);
    this.addSql(`create table person_token (
      id varchar(64) primary key,
      token_hash varchar(64) not null unique,
      user_id varchar(64) not null references app_user(id) on delete cascade deferrable initially deferred,
      kind varchar(16) not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz null
    )`);
    this.addSql(`create index person_token_user_idx on person_token(user_id, kind) where used_at is null`);
    this.addSql(`create table sign_in_throttle (
      bucket varchar(160) primary key,
      failures integer not null,
      window_start timestamptz not null
    )`);
  }
}
