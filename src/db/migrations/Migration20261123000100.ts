import { Migration } from '@mikro-orm/migrations';

/**
 * Key lineage: `parent_key_id` names the key that created a key through `/developer/api-keys` (or
 * GraphQL); keys from the CLI, the first start and signed-in people have none. It replaces
 * `created_by_key_id`, which recorded the same thing without being used, so existing lineage is kept.
 * Revoking a key revokes its descendants, so keys already created by a revoked key are revoked here too.
 */
export class Migration20261123000100 extends Migration {
  override name = 'Migration20261123000100';

  override up(): void {
    this.addSql(`alter table api_key rename column created_by_key_id to parent_key_id`);
    this.addSql(`update api_key k set parent_key_id = null
      where parent_key_id is not null and not exists (select 1 from api_key p where p.id = k.parent_key_id)`);
    this.addSql(`alter table api_key add constraint api_key_parent_key_id_fkey
      foreign key (parent_key_id) references api_key(id) on delete set null deferrable initially deferred`);
    this.addSql(`create index api_key_parent_key_idx on api_key(parent_key_id) where parent_key_id is not null`);
    this.addSql(`with recursive lineage(id, revoked_at) as (
        select id, revoked_at from api_key where revoked_at is not null
        union
        select k.id, l.revoked_at from api_key k join lineage l on k.parent_key_id = l.id
      )
      update api_key k set revoked_at = x.revoked_at
        from (select id, min(revoked_at) as revoked_at from lineage group by id) x
       where k.id = x.id and k.revoked_at is null`);
  }
}
