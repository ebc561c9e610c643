import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook deliveries at volume (issue 11), two indexes:
 * - the due index in the claim's order (next_attempt_at, id): a claim reads the first due rows in order
 *   instead of sorting every due row (a backlog of 20 000 rows cost a sort of all of them per claim);
 * - the finished deliveries only (no retry pending, no attempt in flight), per endpoint, newest first:
 *   the log trim reads the finished rows older than the endpoint's 50th newest through it, instead of
 *   walking every row of the endpoint, pending ones included.
 */
export class Migration20261123110000 extends Migration {
  override name = 'Migration20261123110000';

  override up(): void {
    this.addSql(
      `create index webhook_delivery_due_order_idx on webhook_delivery(next_attempt_at, id) where next_attempt_at is not null`,
    );
    this.addSql(`drop index if exists webhook_delivery_due_idx`);
    this.addSql(
      `create index webhook_delivery_finished_idx on webhook_delivery(endpoint_id, created_at desc, id desc)
        where next_attempt_at is null and lease_until is null`,
    );
  }

  override down(): void {
    this.addSql(`drop index if exists webhook_delivery_finished_idx`);
    this.addSql(`create index webhook_delivery_due_idx on webhook_delivery(next_attempt_at) where next_attempt_at is not null`);
    this.addSql(`drop index if exists webhook_delivery_due_order_idx`);
  }
}
