/**
 * Takes the screenshots of docs/console.md: `npx tsx test/console/screenshots.ts` (needs PostgreSQL or
 * the embedded database, and /usr/bin/chromium). Seeds a workspace over GraphQL with a person's session,
 * then opens each main screen in headless Chromium and writes docs/console/<screen>.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { browser as sessionClient } from '../people/support.js';
import { startConsole } from '../support/browser.js';
import { startScriptedChatApp } from '../support/chat.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

const OUT = join(import.meta.dirname, '../../docs/console');
mkdirSync(OUT, { recursive: true });

const { t, model } = await startScriptedChatApp({ SVC_BACKGROUND_JOBS: 'on' });
const h = await startConsole({ app: t });
const receiver = await startWebhookReceiver();
try {
  const { email, password } = await h.person({ email: 'ada@example.com' });
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
  const shot = async (name: string) => {
    await page.locator('main').getByText('Loading…').waitFor({ state: 'detached' }).catch(() => undefined);
    await page.screenshot({ path: join(OUT, `${name}.png`) });
    console.log(`docs/console/${name}.png`);
  };

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
  await page.getByRole('button', { name: /^Deliveries of/ }).click();
  await page.getByRole('table').waitFor();
  await shot('webhooks');

  await page.getByRole('link', { name: 'Usage' }).click();
  await page.locator('.uplot, .empty').first().waitFor();
  await shot('usage');

  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByText('CRM integration').first().waitFor();
  await shot('keys');

  await page.getByRole('link', { name: 'Proofs' }).click();
  await page.getByRole('list', { name: 'Certificates' }).getByRole('button').first().click();
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('status').waitFor();
  await shot('proofs');

  const phone = await h.signedIn(email, password, { width: 390 });
  await phone.getByRole('link', { name: 'Chat', exact: true }).click();
  await phone.getByRole('link', { name: /refund/i }).first().click();
  await phone.getByText('on the original payment method').first().waitFor();
  await phone.screenshot({ path: join(OUT, 'chat-390.png') });
  console.log('docs/console/chat-390.png');

  const signIn = await h.page();
  await signIn.getByRole('heading', { name: 'Sign in' }).waitFor();
  await signIn.screenshot({ path: join(OUT, 'sign-in.png') });
  console.log('docs/console/sign-in.png');
} finally {
  await h.close();
  await t.close();
  await model.close();
  await receiver.close();
}
