import { Migration } from '@mikro-orm/migrations';

/** Flows (issue 15): which process ran each step (`<host>:<pid>:<random>`), for operators and the two-process tests. */
export class Migration20261123150100 extends Migration {
  override name = 'Migration20261123150100';

  override up(): void {
    this.addSql(`alter table flow_step add column worker_id varchar(120) null`);
  }
}
