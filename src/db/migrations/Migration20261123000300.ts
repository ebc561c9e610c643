import { Migration } from '@mikro-orm/migrations';

/**
 * `outcome` of a certificate: null for an answer, `failed` or `abandoned` for a streamed gateway call
 * that ended without one (its id was already in the `x-svc-proof` header). Signed only when set, so
 * the bodies of earlier certificates, and their hashes, are unchanged.
 */
export class Migration20261123000300 extends Migration {
  override name = 'Migration20261123000300';

  override up(): void {
    this.addSql(`alter table proof_certificate add column outcome text null`);
  }
}
