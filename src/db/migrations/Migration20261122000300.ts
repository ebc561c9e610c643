import { Migration } from '@mikro-orm/migrations';

/**
 * Outgoing webhooks: endpoints (private to the user who created them) and deliveries. A delivery row is
 * both the outbox entry written in the producer's transaction and the log entry shown to the user; its
 * schedule (`next_attempt_at`, `lease_until`) lives here so restarts and several processes lose nothing.
 */
export class Migration20261122000300 extends Migration {
  override name = 'Migration20261122000300';

  override up(): void {
    this.addSql(`create table webhook_endpoint (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      user_id varchar(64) not null,
      url text not null,
      events jsonb not null,
      description text not null default '',
      secret text not null,
      secret_preview varchar(64) not null,
      is_active boolean not null default true,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index webhook_endpoint_owner_idx on webhook_endpoint(workspace_id, user_id, created_at desc)`);
    this.addSql(`create table webhook_delivery (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      endpoint_id varchar(64) not null references webhook_endpoint(id) on delete cascade deferrable initially deferred,
      event_id varchar(64) not null,
      event varchar(64) not null,
      body text not null,
      attempts integer not null default 0,
      status_code integer null,
      response_body text not null default '',
      failure_reason text null,
      success boolean not null default false,
      delivered_at timestamptz null,
      next_attempt_at timestamptz null,
      lease_until timestamptz null,
      lease_token varchar(64) null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index webhook_delivery_log_idx on webhook_delivery(endpoint_id, created_at desc, id desc)`);
    this.addSql(
      `create index webhook_delivery_due_idx on webhook_delivery(next_attempt_at) where next_attempt_at is not null`,
    );
  }
}
