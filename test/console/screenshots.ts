/**
 * Takes the screenshots of docs/console.md: `npx tsx test/console/screenshots.ts` (needs PostgreSQL or
 * the embedded database, and /usr/bin/chromium). Seeds a workspace over GraphQL with a person's session,
 * then opens every screen in headless Chromium (the scripted model server answers) and writes
 * docs/console/<screen>.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { browser as sessionClient } from '../people/support.js';
import { startConsole } from '../support/browser.js';
import { startScriptedChatApp } from '../support/chat.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { api } from '../support/api.js';
import { ingest } from '../support/knowledge.js';

const CONTRACT = readFileSync(new URL('../fixtures/labelled/corpus/supply-agreement-brightwell.md', import.meta.url));

const OUT = join(import.meta.dirname, '../../docs/console');
mkdirSync(OUT, { recursive: true });

const { t, model } = await startScriptedChatApp({ SVC_BACKGROUND_JOBS: 'on' });
const h = await startConsole({ app: t });
const receiver = await startWebhookReceiver();
try {
  const { tenant, email, password } = await h.person({ email: 'ada@example.com' });
  const s = sessionClient(t.baseUrl, { ip: '10.1.2.3' });
  await s.signIn(email, password);
  const gql = async (query: string, variables?: Record<string, unknown>) => {
    const res = await s.graphql(query, variables);
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return res.body.data;
  };
  const agent = (name: string, role: string, mission: string) =>
    gql(`mutation($i: CreateAgentInput!) { createAgent(input: $i) { id } }`, {
      i: { name, role, mission, personality: 'calm and precise', decisionStyle: 'evidence first', systemPrompt: 'Be brief and cite.' },
    });
  const ada = (await agent('Ada', 'Customer care lead', 'Answer refund and delivery questions from the policies')).createAgent.id;
  await agent('Bo', 'Finance controller', 'Keep costs and risks in view');
  await gql(`mutation($id: ID!) { updateAgentConsoleFields(id: $id, input: { expertise: ["Refunds", "Delivery"], outOfScope: ["Legal advice"], checklist: ["Cite the policy"] }) { id } }`, { id: ada });
  const col = (await gql(`mutation { createKnowledgeCollection(input: { name: "Policies", description: "Customer-facing rules" }) { id } }`)).createKnowledgeCollection.id;
  const doc = '# Refunds\n\nRefunds are granted within 30 days of purchase, on the original payment method.\n\n## Delivery\n\nParcels ship within two working days.\n';
  await gql(`mutation($i: UploadKnowledgeSourceInput!) { uploadKnowledgeSource(input: $i) { id } }`, {
    i: { filename: 'customer-policy.md', mimeType: 'text/markdown', contentBase64: Buffer.from(doc).toString('base64'), collectionId: col },
  });
  for (let i = 0; i < 100; i++) {
    const { knowledgeSources } = await gql(`{ knowledgeSources { status } }`);
    if (knowledgeSources.every((x: { status: string }) => x.status === 'ready')) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await gql(`mutation($a: ID!, $c: String) { linkKnowledge(agentId: $a, collectionId: $c) { agentId } }`, { a: ada, c: col });
  await gql(`mutation { createApiKey(input: { name: "CRM integration", scopes: ["agents", "knowledge"], ratePerMinute: 60, monthlyQuestionLimit: 2000 }) { secret } }`);
  const hook = await gql(`mutation($u: String!) { createWebhook(input: { url: $u, description: "CRM", events: ["source.ingested"] }) { webhook { id } } }`, {
    u: receiver.url('/hooks'),
  });
  await gql(`mutation($id: ID!) { testWebhook(id: $id) { success } }`, { id: hook.createWebhook.webhook.id });

  const page = await h.signedIn(email, password);
  const shot = async (name: string, opts: { fullPage?: boolean } = {}) => {
    await page.locator('main').getByText('Loading…').waitFor({ state: 'detached' }).catch(() => undefined);
    // Toasts (sonner) leave after a few seconds: the screen is shown without them.
    await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
    await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: opts.fullPage ?? false });
    console.log(`docs/console/${name}.png`);
  };
  const section = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();

  await shot('agents');
  await page.getByRole('button', { name: 'Edit Ada' }).click();
  await page.getByLabel('Expertise').waitFor();
  await shot('agent-form');
  await page.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('link', { name: 'Chat with Ada' }).click();
  model.enqueue({ chunks: ['Refunds are granted ', 'within 30 days of purchase ', '[1], on the original payment method.'] });
  await page.getByLabel('Message').fill('Can I still get a refund after three weeks?');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByTestId('live-answer').getByText('tokens').waitFor();
  await shot('chat');
  const cite = page.getByRole('button', { name: 'Open cited passage 1' });
  if (await cite.count()) {
    await cite.click();
    await page.getByRole('dialog').waitFor();
    await shot('chat-citation');
    await page.getByRole('button', { name: 'Close' }).click();
  }

  await page.getByRole('link', { name: 'Knowledge', exact: true }).click();
  await page.getByLabel('Search the documents').fill('refund within days');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.locator('main ol.list').waitFor();
  await shot('knowledge');

  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('button', { name: 'Deliveries' }).click();
  const deliveries = page.getByRole('list', { name: /^Deliveries of/ });
  await deliveries.getByText('webhook.test').first().waitFor();
  await deliveries.getByRole('button', { name: /^Details of webhook\.test/ }).first().click();
  await deliveries.getByRole('group', { name: /^Delivery / }).waitFor();
  await shot('webhooks', { fullPage: true });

  await page.getByRole('link', { name: 'Usage' }).click();
  await page.locator('.uplot, .empty').first().waitFor();
  await shot('usage');

  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByText('CRM integration').first().waitFor();
  await shot('keys');

  await page.getByRole('link', { name: 'Proofs' }).click();
  await page.getByRole('list', { name: 'Certificates' }).getByRole('link').first().click();
  const certificate = page.getByRole('article', { name: /^Certificate #/ });
  await certificate.getByRole('button', { name: 'Verify' }).click();
  await certificate.getByRole('status').getByText(/hash ok/).waitFor();
  await shot('proofs');

  // Debates: one round between Ada and Bo, the devil's advocate the first debate creates, then the synthesis.
  await section('Debates');
  await page.getByTestId('devils-advocate-explained').waitFor();
  model.enqueue({ chunks: ['Refund within 30 days, ', 'as the policy says [1]: it keeps customers.'] });
  model.enqueue({ chunks: ['Agreed on 30 days, ', 'but only on the original payment method, to limit fraud.'] });
  model.enqueue({ chunks: ['Weakest point: nobody priced ', 'what the 30-day window costs in returns.'] });
  model.enqueue({
    content: JSON.stringify({
      agreements: ['Refunds within 30 days of purchase', 'Refunds go to the original payment method'],
      disagreements: [{ point: 'Whether the cost of returns was measured', heldBy: ["Devil's Advocate"] }],
      recommendation: 'Keep the 30-day window and measure the cost of returns for a quarter.',
      confidence: 0.72,
    }),
  });
  await page.getByLabel('Topic').fill('Should refunds stay open for 30 days?');
  await page.getByRole('group', { name: /Debaters/ }).getByRole('checkbox').first().check();
  await page.getByRole('group', { name: /Debaters/ }).getByRole('checkbox').nth(1).check();
  await page.getByRole('button', { name: 'Start debate' }).click();
  await page.getByText('measure the cost of returns for a quarter').first().waitFor({ timeout: 30_000 });
  await shot('debates', { fullPage: true });

  // Postes: Contract review installed, a dossier with a contract, a run's report.
  await section('Postes');
  await page.getByRole('button', { name: 'Install Contract review' }).click();
  const poste = page.getByRole('article', { name: 'Contract review' });
  await poste.getByRole('list', { name: 'Checklist of Contract review' }).getByText('Limitation of liability').waitFor();
  await page.getByLabel('Dossier name').fill('Brightwell supply');
  await page.getByRole('button', { name: 'Create dossier' }).click();
  await page.getByRole('status').getByText('Dossier Brightwell supply created').waitFor();
  const rest = api(t.baseUrl, tenant.key);
  const dossierId = (await rest.get('/v1/dossiers')).body.dossiers[0].id as string;
  await ingest(t, tenant, CONTRACT, 'supply-agreement.md', { dossierId });
  const answers: Record<string, { text: string; quote: string }> = {
    'Payment terms and late payment interest': { text: 'Invoices are paid within 45 days from the invoice date by bank transfer.', quote: 'within 45 days' },
    'Limitation of liability': { text: "Each party's total liability is capped at 100,000 EUR per contract year.", quote: 'capped at 250,000 EUR' },
  };
  for (const checkpoint of (await poste.getByRole('list', { name: 'Checklist of Contract review' }).getByRole('listitem').allTextContents()) as string[]) {
    const found = await rest.post('/v1/knowledge/query', { query: checkpoint, collectionIds: [dossierId], topK: 5 });
    if (found.body.results.length === 0) continue;
    const answer = answers[checkpoint];
    const hit = answer && (found.body.results as { ref: number; text: string }[]).find((r) => r.text.includes(answer.quote));
    model.enqueue({ content: answer && hit ? `${answer.text} [${hit.ref}]` : 'NOT_IN_DOCUMENTS' });
  }
  await page.reload();
  await poste.getByLabel('Dossier', { exact: true }).selectOption({ label: 'Brightwell supply (1 document)' });
  await poste.getByRole('button', { name: 'Run on a dossier' }).click();
  await poste.getByRole('region', { name: 'Run report on Brightwell supply' }).getByRole('status').getByText('completed').waitFor({ timeout: 30_000 });
  await poste.getByRole('region', { name: 'Run report on Brightwell supply' }).scrollIntoViewIfNeeded();
  await shot('postes', { fullPage: true });

  // Flows: the editor with a step's inspector, a run waiting on its approval, the live inbox.
  await gql(`mutation($i: CreateFlowInput!) { createFlow(input: $i) { flow { id } } }`, {
      i: {
        name: 'Refund over 100 EUR',
        graph: {
          nodes: [
            { key: 'start', type: 'trigger.manual', position: { x: 40, y: 20 } },
            { key: 'draft', type: 'agent.ask', config: { agentId: ada, prompt: 'Draft a short refund note for Grace: 120 EUR, back to her card' }, position: { x: 40, y: 130 } },
            { key: 'manager_ok', type: 'approval', config: { question: 'Refund 120 EUR to Grace?' }, position: { x: 40, y: 240 } },
            { key: 'notify', type: 'transform', config: { template: 'Approved by {{steps.manager_ok.decidedBy}}: {{steps.draft.answer}}' }, position: { x: -120, y: 350 } },
            { key: 'archive', type: 'transform', config: { template: 'Rejected: {{steps.manager_ok.comment}}' }, position: { x: 200, y: 350 } },
          ],
          edges: [
            { from: 'start', to: 'draft' },
            { from: 'draft', to: 'manager_ok' },
            { from: 'manager_ok', to: 'notify', when: 'approved' },
            { from: 'manager_ok', to: 'archive', when: 'rejected' },
          ],
        },
      },
    });
  await section('Flows');
  await page.getByRole('button', { name: 'Refund over 100 EUR' }).click();
  await page.locator('.react-flow__node').nth(4).waitFor();
  await page.getByLabel('Steps', { exact: true }).selectOption('manager_ok');
  await page.getByRole('region', { name: 'Step “manager_ok”' }).waitFor();
  await shot('flows', { fullPage: true });
  model.enqueue({ content: 'Dear Grace, your refund of 120 EUR is on its way to your card.' });
  await page.getByRole('button', { name: 'Run now' }).click();
  await page.getByTestId('run-log').waitFor();
  await page.getByRole('list', { name: 'Approvals' }).getByText('Refund 120 EUR to Grace?').waitFor({ timeout: 30_000 });
  await page.getByTestId('run-log').scrollIntoViewIfNeeded();
  await shot('flow-run', { fullPage: true });
  await page.getByRole('heading', { name: 'Flows', level: 1 }).scrollIntoViewIfNeeded();
  await shot('approvals');

  // People: an invitation waiting, seats; the audit log; your account.
  await section('People');
  await page.getByLabel('E-mail address').fill('grace@example.com');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByText('grace@example.com invited', { exact: true }).waitFor();
  await shot('people');
  await section('Audit');
  await page.getByRole('table', { name: 'Audit entries, newest first' }).getByText('person.signed_in').first().waitFor();
  await shot('audit');
  await section('Your account');
  await page.getByLabel('Current password').waitFor();
  await shot('account');

  const phone = await h.signedIn(email, password, { width: 390 });
  await phone.getByRole('link', { name: 'Chat', exact: true }).click();
  await phone.getByRole('link', { name: 'Can I still get a refund after three weeks?' }).click();
  await phone.getByText('on the original payment method').first().waitFor();
  await phone.screenshot({ path: join(OUT, 'chat-390.png') });
  console.log('docs/console/chat-390.png');

  const signIn = await h.page();
  await signIn.getByRole('heading', { name: 'Sign in' }).waitFor();
  await signIn.screenshot({ path: join(OUT, 'sign-in.png') });
  console.log('docs/console/sign-in.png');

  // The page a reset or invitation link opens (served by the service, styled like the console).
  const setPassword = await h.page();
  await setPassword.goto('/auth/set-password#reset=a-token-from-the-mail');
  await setPassword.getByRole('heading', { name: 'Choose a new password' }).waitFor();
  await setPassword.screenshot({ path: join(OUT, 'set-password.png') });
  console.log('docs/console/set-password.png');
} finally {
  await h.close();
  await t.close();
  await model.close();
  await receiver.close();
}
