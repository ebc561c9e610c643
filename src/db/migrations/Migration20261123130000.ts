import { Migration } from '@mikro-orm/migrations';

/**
 * Verifier reports (issue 13), listed newest first by `seq` (an identity: it only grows, so a page
 * cursor stays valid while new reports arrive). `proof_certificate.api_key_id`: the API key a
 * certificate was issued for, not part of the signed body, used by the register's key filter.
 */
export class Migration20261123130000 extends Migration {
  override name = 'Migration20261123130000';

  override up(): void {
    this.addSql(`create table verify_report (
      id varchar(64) primary key,
      seq bigint generated always as identity,
      workspace_id varchar(64) not null references workspace(id) on delete cascade,
      key_id varchar(64) not null,
      user_id varchar(64) not null,
      language text not null,
      text text not null,
      against text not null,
      collection_ids jsonb null,
      passage_count integer not null,
      claims jsonb not null,
      supported integer not null,
      contradicted integer not null,
      unverifiable integer not null,
      certificate_id varchar(64) not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index verify_report_list_idx on verify_report(workspace_id, seq desc)`);
    this.addSql(`alter table proof_certificate add column api_key_id varchar(64) null`);
  }
}
