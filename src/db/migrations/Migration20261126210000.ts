import { Migration } from '@mikro-orm/migrations';

/**
 * Inbound flow hooks signed as Standard Webhooks (docs/flows.md, "Inbound webhook"): the `webhook-id` of
 * every accepted delivery, kept while its signed timestamp could still be inside the 5-minute window, so
 * a replayed delivery is refused (409 webhook_replayed). Swept by the flows module.
 */
export class Migration20261126210000 extends Migration {
  override name = 'Migration20261126210000';

  override up(): void {
    this.addSql(`create table flow_hook_message (
      flow_id varchar(255) not null,
      message_id varchar(255) not null,
      run_id varchar(255) not null,
      received_at timestamptz not null,
      primary key (flow_id, message_id)
    )`);
    this.addSql(`create index flow_hook_message_received_at_index on flow_hook_message (received_at)`);
  }
}
