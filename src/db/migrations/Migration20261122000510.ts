import { Migration } from '@mikro-orm/migrations';

/**
 * Knowledge: the file name as uploaded, apart from the display `name` (which the client may set or
 * change). Ingestion reads the format from it; the original download is offered under it. Null (read
 * as the display name) for rows that predate the column or are written by hand.
 */
export class Migration20261122000510 extends Migration {
  override name = 'Migration20261122000510';

  override up(): void {
    this.addSql(`alter table knowledge_source add column filename text null`);
    this.addSql(`update knowledge_source set filename = name where filename is null`);
  }
}
