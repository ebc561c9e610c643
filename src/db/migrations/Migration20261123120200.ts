import { Migration } from '@mikro-orm/migrations';

/**
 * The proof chain no longer takes a lock to append: each process appends after the last link it knows
 * and the unique (workspace_id, seq) index refuses an append another process overtook, which is then
 * re-linked and retried (src/modules/proofs/chain.ts). `svc_chain_head` (lock, then read) is unused.
 */
export class Migration20261123120200 extends Migration {
  override name = 'Migration20261123120200';

  override up(): void {
    this.addSql('drop function if exists svc_chain_head(text)');
  }
}
