import { Migration } from '@mikro-orm/migrations';

/**
 * A stopped chat turn is kept (issue 27, docs/chat.md "Disconnects"): the question and the part of the
 * answer streamed before the client left are stored as an exchange whose answer is marked `stopped`.
 */
export class Migration20261127022000 extends Migration {
  override name = 'Migration20261127022000';

  override up(): void {
    this.addSql(`alter table chat_message add column stopped boolean not null default false`);
  }
}
