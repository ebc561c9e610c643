import { Migration } from '@mikro-orm/migrations';

/**
 * The partner (integrator) program (issue 17, docs/partner.md). On `workspace`: `integrator_id` names
 * the integrator of a client workspace, and `provider_unpaid_after` carries, on each client, when its
 * integrator's oldest open invoice passes its grace period: the key lookup reads both with the rest of
 * the workspace row, so the 403 `provider_unpaid` check costs no query of its own.
 */
export class Migration20261123170000 extends Migration {
  override name = 'Migration20261123170000';

  override up(): void {
    this.addSql(`alter table workspace add column integrator_id varchar(64) null references workspace(id) on delete set null`);
    this.addSql(`alter table workspace add column provider_unpaid_after timestamptz null`);
    this.addSql(`create index workspace_integrator_idx on workspace(integrator_id) where integrator_id is not null`);
    this.addSql(`create table partner_program (
      workspace_id varchar(64) primary key references workspace(id) on delete cascade,
      sandbox boolean not null,
      grace_days integer not null,
      stripe_customer_id text null,
      auto_debit_session_id text null,
      auto_debit_payment_method text null,
      auto_debit_since timestamptz null,
      created_at timestamptz not null
    )`);
    this.addSql(`create table partner_client (
      workspace_id varchar(64) primary key references workspace(id) on delete cascade,
      partner_id varchar(64) not null references workspace(id) on delete cascade,
      service_user_id varchar(64) not null,
      admin_user_id varchar(64) null,
      rate_per100_cents integer null,
      seat_rate_cents integer null,
      included_questions_per_seat integer null,
      sandbox boolean not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index partner_client_partner_idx on partner_client(partner_id, created_at)`);
    this.addSql(`create table partner_payment (
      client_id varchar(64) not null references workspace(id) on delete cascade,
      month varchar(7) not null,
      partner_id varchar(64) not null,
      paid boolean not null,
      amount_cents integer null,
      updated_at timestamptz not null,
      primary key (client_id, month)
    )`);
    this.addSql(`create table partner_invoice (
      id varchar(64) primary key,
      partner_id varchar(64) not null references workspace(id) on delete cascade,
      month varchar(7) not null,
      status varchar(16) not null,
      sandbox boolean not null,
      amount_cents integer not null,
      currency varchar(3) not null,
      lines jsonb not null,
      created_at timestamptz not null,
      issued_at timestamptz null,
      due_at timestamptz null,
      paid_at timestamptz null,
      checkout_session_id text null,
      payment_intent_id text null,
      unique (partner_id, month)
    )`);
    this.addSql(`create table partner_device (
      id varchar(64) primary key,
      partner_id varchar(64) null references workspace(id) on delete cascade,
      name text null,
      device_code_hash varchar(64) not null unique,
      user_code varchar(16) not null,
      status varchar(16) not null,
      key_id varchar(64) null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      paired_at timestamptz null,
      last_seen_at timestamptz null
    )`);
    this.addSql(`create index partner_device_user_code_idx on partner_device(user_code) where status = 'pending'`);
  }
}
