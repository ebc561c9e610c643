import { Migration } from '@mikro-orm/migrations';

/** Questions held by answers admitted but not yet recorded, so concurrent admissions cannot overshoot. */
export class Migration20261122000700 extends Migration {
  override name = 'Migration20261122000700';

  override up(): void {
    this.addSql(`create table question_hold (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      questions integer not null,
      expires_at timestamptz not null
    )`);
    this.addSql(`create index question_hold_workspace_idx on question_hold(workspace_id, expires_at)`);
  }
}
