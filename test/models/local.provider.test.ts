import { Tiktoken } from 'js-tiktoken/lite';
import o200k_base from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { LocalProvider } from '../../src/modules/models/local.provider.js';
import type { ChatMessage, CompletionRequest, TurnMaterial } from '../../src/modules/models/provider.js';
import { collect } from '../support/model-streams.js';

const persona = {
  name: 'Ada',
  role: 'billing assistant',
  personality: 'calm and precise',
  mission: 'Help customers understand their invoices and refunds.',
  decisionStyle: 'careful',
  systemPrompt: 'Answer briefly.',
};

const material: TurnMaterial = {
  persona,
  passages: [
    {
      ref: 1,
      text: 'Refunds are issued within 14 days of the request. The refund goes back to the original payment method.',
      sourceName: 'refund-policy.pdf',
    },
    {
      ref: 2,
      text: 'Invoices are sent on the first day of each month. Each invoice lists the plan and the number of seats.',
      sourceName: 'billing.md',
    },
  ],
  contextBlocks: [
    { heading: 'Notes', text: 'The customer asked about the plan last week.', high: false },
    { heading: 'Customer', text: 'The customer plan is Pro with 12 seats.', high: true },
  ],
  memories: [{ key: 'preferred_contact', value: 'The user prefers to be contacted by email.' }],
};

const question = (content: string, extra: Partial<CompletionRequest> = {}): CompletionRequest => ({
  messages: [
    { role: 'system', content: 'You are Ada, billing assistant.' },
    { role: 'user', content },
  ],
  material,
  ...extra,
});

describe('LocalProvider', () => {
  const local = new LocalProvider();
  const enc = new Tiktoken(o200k_base);

  it('describes itself as the light, local, tool-less built-in model', () => {
    expect(local).toMatchObject({ name: 'local', model: 'svc-local-1', modelClass: 'light', local: true, supportsTools: false });
  });

  it('answers from passages and cites them, with the sentences that hold the asked type (how long: a duration)', async () => {
    const result = await local.complete(question('How long do refunds take?'));
    expect(result.content).toBe('Refunds are issued within 14 days of the request. [1]');
    expect(result).toMatchObject({ toolCalls: [], finishReason: 'stop', model: 'svc-local-1' });
    const invoices = await local.complete(question('When are the invoices sent?'));
    expect(invoices.content).toContain('Invoices are sent on the first day of each month. [2]');
  });

  it('is deterministic', async () => {
    const a = await local.complete(question('Which plan and how many seats?'));
    const b = await local.complete(question('Which plan and how many seats?'));
    expect(a).toEqual(b);
  });

  it('puts high-priority context first', async () => {
    const result = await local.complete(question('What plan is the customer on?'));
    expect(result.content.startsWith('The customer plan is Pro with 12 seats.')).toBe(true);
  });

  it('uses memories', async () => {
    const result = await local.complete(question('How should I contact the user?'));
    expect(result.content).toBe('The user prefers to be contacted by email.');
  });

  it('matches across accents and inflections', async () => {
    const french: TurnMaterial = {
      passages: [{ ref: 3, text: 'Les factures sont émises le premier jour du mois.', sourceName: 'facturation.md' }],
    };
    const result = await local.complete({ messages: [{ role: 'user', content: 'Quand la facture est-elle emise ?' }], material: french });
    expect(result.content).toBe('Les factures sont émises le premier jour du mois. [3]');
  });

  it('says plainly what it is when nothing matches', async () => {
    const result = await local.complete(question('What is the capital of Peru?'));
    expect(result.content).toBe(
      "I am Ada, billing assistant. I am running on the service's built-in local model, which answers only from the documents, memories and context given to this conversation, and I found nothing there about \"What is the capital of Peru?\".",
    );
    const bare = await local.complete({ messages: [{ role: 'user', content: 'What is the capital of Peru?' }] });
    expect(bare.content).toBe(
      "I am the service's built-in local model, which answers only from the documents, memories and context given to this conversation, and I found nothing there about \"What is the capital of Peru?\".",
    );
  });

  it('falls back to the system prompt when given no material', async () => {
    const result = await local.complete({
      messages: [
        { role: 'system', content: 'The office opens at 9am. Parking is free for visitors.' },
        { role: 'user', content: 'Is parking free?' },
      ],
    });
    expect(result.content).toBe('Parking is free for visitors.');
  });

  it('greets back on small talk, in the language of the greeting', async () => {
    expect((await local.complete(question('Hello!'))).content).toBe('Hello! I am Ada, billing assistant. How can I help you?');
    expect((await local.complete(question('Bonjour'))).content).toBe('Bonjour ! Je suis Ada, billing assistant. Comment puis-je vous aider ?');
    expect((await local.complete(question('thanks a lot'))).content).toBe("You're welcome! Anything else I can help with?");
  });

  it('introduces itself when asked who it is', async () => {
    const result = await local.complete(question('Who are you?'));
    expect(result.content).toBe('I am Ada, billing assistant. My mission: Help customers understand their invoices and refunds.');
  });

  it('fills requested JSON fields with the best sentence or an empty string', async () => {
    const result = await local.complete(
      question('Tell me about refunds', {
        json: true,
        material: { ...material, jsonFields: { refundDelay: 'how long a refund takes', invoiceDay: 'when invoices are sent', ceo: 'name of the CEO' } },
      }),
    );
    expect(JSON.parse(result.content)).toEqual({
      refundDelay: 'Refunds are issued within 14 days of the request. [1]',
      invoiceDay: 'Invoices are sent on the first day of each month. [2]',
      ceo: '',
    });
  });

  it('answers JSON without fields as { answer, sources }', async () => {
    const result = await local.complete(question('How long do refunds take?', { json: true }));
    expect(JSON.parse(result.content)).toEqual({
      answer: 'Refunds are issued within 14 days of the request. [1]',
      sources: [1],
    });
    const nothing = await local.complete(question('Capital of Peru?', { json: true, material: { ...material, jsonSchema: '{ answer }' } }));
    expect(JSON.parse(nothing.content)).toMatchObject({ sources: [] });
  });

  it('counts tokens with o200k: prompt is every message, completion the answer', async () => {
    const req = question('How long do refunds take?');
    const result = await local.complete(req);
    const prompt = req.messages.reduce((n, m) => n + enc.encode(m.content).length, 0);
    const completion = enc.encode(result.content).length;
    expect(result.usage).toEqual({ promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion });
    expect(await local.countTokens(req.messages)).toBe(prompt);
  });

  it('keeps the answer within maxTokens', async () => {
    const result = await local.complete(question('How long do refunds take?', { maxTokens: 6 }));
    expect(enc.encode(result.content).length).toBeLessThanOrEqual(6);
    expect(result.finishReason).toBe('length');
  });

  it('streams word by word, the deltas joining to the content', async () => {
    const { deltas, result } = await collect(local.stream(question('How long do refunds take?')));
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(result.content);
    expect(result).toEqual(await local.complete(question('How long do refunds take?')));
  });

  it('never calls tools, even when offered some', async () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const result = await local.complete({
      messages,
      tools: [{ name: 'get_weather', description: 'weather', parameters: { type: 'object' } }],
    });
    expect(result.toolCalls).toEqual([]);
  });

  it('refuses an aborted call', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(local.complete(question('Refunds?', { signal: controller.signal }))).rejects.toMatchObject({
      name: 'ProviderError',
      aborted: true,
    });
  });
});
