import { Migration } from '@mikro-orm/migrations';

/** Gateway: proof certificates (one hash chain per workspace), the signing keys, conversations. */
export class Migration20261122000600 extends Migration {
  override name = 'Migration20261122000600';

  override up(): void {
    this.addSql(`create table gateway_signing_key (
      id varchar(64) primary key,
      public_key_pem text not null,
      private_key_pem text null,
      created_at timestamptz not null
    )`);
    this.addSql(`create table conversation (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      created_at timestamptz not null
    )`);
    this.addSql(`create index conversation_workspace_idx on conversation(workspace_id, created_at)`);
    this.addSql(`create table proof_certificate (
      id varchar(64) primary key,
      workspace_id varchar(64) not null references workspace(id) on delete cascade deferrable initially deferred,
      seq integer not null,
      route varchar(128) not null,
      model_address text not null,
      model text not null,
      conversation_id varchar(64) null,
      request_hash varchar(64) not null,
      answer_hash varchar(64) not null,
      prompt_tokens integer not null,
      completion_tokens integer not null,
      total_tokens integer not null,
      prev_hash varchar(64) null,
      hash varchar(64) not null,
      signature text not null,
      key_id varchar(64) not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create unique index proof_certificate_chain_idx on proof_certificate(workspace_id, seq)`);
  }
}
