import { Migration } from '@mikro-orm/migrations';

/**
 * `granted` of a rate counter: how many requests the last statement on the row let through. A batch of
 * requests to one bucket is counted by one upsert (`count = least(count + n, limit)`), and `granted`
 * (computed from the old count in the same SET) tells the batch how many of its requests passed.
 */
export class Migration20261123120000 extends Migration {
  override name = 'Migration20261123120000';

  override up(): void {
    this.addSql(`alter table rate_counter add column granted integer not null default 0`);
  }
}
