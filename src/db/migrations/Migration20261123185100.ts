import { Migration } from '@mikro-orm/migrations';

/**
 * A light widget answers from one dossier (docs/widgets.md): `widget.dossier_id`, null for agent widgets.
 * Not a foreign key, like `agent_id`: a deleted dossier leaves the widget answering 404 until changed.
 */
export class Migration20261123185100 extends Migration {
  override name = 'Migration20261123185100';

  override up(): void {
    this.addSql(`alter table widget add column dossier_id varchar(64) null`);
  }
}
