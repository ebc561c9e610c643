import { newId } from '../../src/lib/ids.js';
import type { TestApp } from '../support/app.js';

/**
 * Puts questions on a client's ledger at a given time, as a metered answer records them: the set-up of
 * the statement cases, whose hand-computed amounts need thousands of questions.
 */
export async function addQuestions(t: TestApp, workspaceId: string, questions: number, at: string): Promise<void> {
  await t.app.services.orm.em.fork().execute(
    `insert into usage_ledger (id, workspace_id, key_id, user_id, kind, route, model_class, model, prompt_tokens, completion_tokens, total_tokens, questions, from_allowance, from_packs, created_at)
     values (?, ?, null, null, 'question', 'POST /v1/chat/completions', 'light', 'fixture', 0, 0, 0, ?, ?, 0, ?)`,
    [newId('use'), workspaceId, questions, questions, new Date(at)],
  );
}
