import { Migration } from '@mikro-orm/migrations';

/**
 * What made a chat answer, kept with it so a session's history shows it after a reload (docs/chat.md,
 * "Sessions"): the passages it cited, its certificate and the stages of its turn. Null for user
 * messages and for answers stored before.
 */
export class Migration20261126204700 extends Migration {
  override name = 'Migration20261126204700';

  override up(): void {
    this.addSql(`alter table chat_message add column citations jsonb null, add column proof_id varchar(64) null, add column stages jsonb null`);
  }
}
