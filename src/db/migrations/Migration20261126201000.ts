import { Migration } from '@mikro-orm/migrations';

/**
 * Request ids (docs/operations.md, "Request ids"): the id of the HTTP request that caused a webhook
 * delivery, a flow run or a proof certificate. Null for rows written before, and for work no request
 * caused (a schedule). The certificate's is not part of its signed body.
 */
export class Migration20261126201000 extends Migration {
  override name = 'Migration20261126201000';

  override up(): void {
    this.addSql(`alter table webhook_delivery add column request_id varchar(128) null`);
    this.addSql(`alter table flow_run add column request_id varchar(128) null`);
    this.addSql(`alter table proof_certificate add column request_id varchar(128) null`);
  }
}
