/**
 * The deterministic rules of the turn, one by one: PII masking and restoring, mood, memory saving,
 * list-style detection, context block rendering, extraction parsing, the event queue, the SSE helper.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { openSse, type Repeat } from '../../rest/sse.js';
import { listen } from '../../src/app/create-app.js';
import { loadConfig } from '../../src/config.js';
import { renderContextBlocks } from '../../src/modules/chat/context-blocks.js';
import { EventQueue } from '../../src/lib/event-queue.js';
import { factsOf } from '../../src/modules/chat/extraction.js';
import { memoriesFromMessage } from '../../src/modules/chat/memory.js';
import { deriveMood } from '../../src/modules/chat/mood.js';
import { PiiMasker } from '../../src/lib/pii.js';
import { isListQuestion, topKFor } from '../../src/modules/chat/retrieval.js';

describe('PII masking', () => {
  it('masks each kind with a numbered placeholder, the same value always the same one', () => {
    const m = new PiiMasker();
    const text = 'a@b.io, +44 20 7946 0958, 06 12 34 56 78, (415) 555-0123, GB82 WEST 1234 5698 7654 32, 5500-0000-0000-0004, a@b.io';
    expect(m.mask(text)).toBe('[EMAIL_1], [PHONE_1], [PHONE_2], [PHONE_3], [IBAN_1], [CARD_1], [EMAIL_1]');
    expect(m.masked).toBe(true);
    expect(m.restore('[EMAIL_1] / [PHONE_2] / [IBAN_1] / [CARD_1] / [EMAIL_9]')).toBe(
      'a@b.io / 06 12 34 56 78 / GB82 WEST 1234 5698 7654 32 / 5500-0000-0000-0004 / [EMAIL_9]',
    );
  });

  it('leaves invalid IBANs and cards, dates, amounts, ids and citations alone', () => {
    const m = new PiiMasker();
    const text = 'GB00 WEST 1234 5698 7654 32, 4111 1111 1111 1112, on 2026-11-22 we paid 1 250 000 EUR for order 20261122 [1]';
    expect(m.mask(text)).toBe(text);
    expect(m.masked).toBe(false);
  });

  it('masks inside JSON values and restores a streamed answer cut in the middle of a placeholder', () => {
    const m = new PiiMasker();
    expect(m.maskValue({ to: ['x@y.com'], n: 3 })).toEqual({ to: ['[EMAIL_1]'], n: 3 });
    const r = m.streamRestorer();
    const out = ['Write to [EM', 'AIL', '_1] now [1', '] ok ['].map((d) => r.push(d)).join('') + r.flush();
    expect(out).toBe('Write to x@y.com now [1] ok [');
  });
});

describe('mood', () => {
  it('is deterministic and follows the tone of the exchange', () => {
    expect(deriveMood('Thanks, this is great!', 'Glad it helped!')).toEqual(deriveMood('Thanks, this is great!', 'Glad it helped!'));
    const happy = deriveMood('Thanks, this is great!', 'Glad it helped!');
    expect(happy.valence).toBeGreaterThan(0.25);
    expect(['content', 'enthusiastic']).toContain(happy.emotion);
    const upset = deriveMood('This is terrible, the invoice is wrong and late. URGENT!!', 'Sorry, I will fix the error.');
    expect(upset.valence).toBeLessThan(-0.25);
    expect(['concerned', 'empathetic']).toContain(upset.emotion);
    expect(upset.arousal).toBeGreaterThan(happy.arousal);
    expect(deriveMood('What is the VAT rate?', 'It is 20%.').emotion).toBe('curious');
    for (const m of [happy, upset]) {
      expect(m.intensity).toBeGreaterThanOrEqual(0);
      expect(m.intensity).toBeLessThanOrEqual(1);
    }
  });

  it('carries part of the previous mood', () => {
    const previous = { emotion: 'concerned', valence: -0.8, arousal: 0.9, intensity: 0.8 };
    const fresh = deriveMood('What is the VAT rate?', 'It is 20%.');
    const blended = deriveMood('What is the VAT rate?', 'It is 20%.', previous);
    expect(blended.valence).toBeLessThan(fresh.valence);
    expect(blended.arousal).toBeGreaterThan(fresh.arousal);
  });
});

describe('memory saving rule', () => {
  it('keeps statements about the user, one per sentence, never questions', () => {
    expect(memoriesFromMessage('Please remember that the audit is in May. I prefer short answers. My favourite colour is blue. Is my name Bob?')).toEqual([
      { key: 'note:the_audit_is', value: 'Please remember that the audit is in May.', type: 'fact', provenance: 'user_message', salience: 0.9 },
      { key: 'preference:short_answers', value: 'I prefer short answers.', type: 'preference', provenance: 'user_message', salience: 0.6 },
      { key: 'favourite_colour', value: 'My favourite colour is blue.', type: 'fact', provenance: 'user_message', salience: 0.5 },
    ]);
    expect(memoriesFromMessage("Je m'appelle Claire. Je travaille chez Acme.").map((m) => m.key)).toEqual(['name', 'occupation']);
    expect(memoriesFromMessage('What is the VAT rate? Hello!')).toEqual([]);
  });
});

describe('list-style questions', () => {
  it('get topK 8 unless topK is given', () => {
    for (const q of ['List the refund rules', 'What are the steps?', 'Give me the top 3 risks', 'Quelles sont les conditions ?', '5 ways to save']) {
      expect(isListQuestion(q)).toBe(true);
    }
    for (const q of ['How long do refunds take?', 'Is clause 4 valid?']) expect(isListQuestion(q)).toBe(false);
    expect(topKFor('List the rules', undefined)).toBe(8);
    expect(topKFor('Why?', undefined)).toBe(5);
    expect(topKFor('List the rules', 2)).toBe(2);
  });
});

describe('context blocks', () => {
  it('high first (caller order kept within a priority), label as heading, objects as indented JSON', () => {
    const blocks = renderContextBlocks([
      { category: 'a', data: 'low', priority: 'low' },
      { category: 'b', data: { k: 1 }, priority: 'medium' },
      { category: 'c', label: 'Cee', data: 'high 1', priority: 'high' },
      { category: 'd', data: 'high 2', priority: 'high' },
    ]);
    expect(blocks.map((b) => [b.heading, b.text, b.high])).toEqual([
      ['Cee', 'high 1', true],
      ['d', 'high 2', true],
      ['b', '{\n  "k": 1\n}', false],
      ['a', 'low', false],
    ]);
  });
});

describe('extraction parsing', () => {
  it('reads both shapes, keeps requested categories only, drops empties and duplicates', () => {
    expect(factsOf('{"facts":[{"category":"Budget","value":"50k"},{"category":"budget","value":"50k"},{"category":"x","value":"y"}]}', ['budget'])).toEqual([
      { category: 'budget', value: '50k' },
    ]);
    expect(factsOf('{"budget":"50k","deadline":["March","April"],"owner":""}', ['budget', 'deadline', 'owner'])).toEqual([
      { category: 'budget', value: '50k' },
      { category: 'deadline', value: 'March' },
      { category: 'deadline', value: 'April' },
    ]);
    expect(factsOf('not json', ['budget'])).toEqual([]);
  });
});

describe('event queue', () => {
  it('return() ends a pending next() at once and calls back once', async () => {
    let returned = 0;
    const q = new EventQueue<number>(() => returned++);
    q.push(1);
    expect(await q.next()).toEqual({ value: 1, done: false });
    const waiting = q.next();
    await q.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(returned).toBe(1);
    q.push(2);
    expect(await q.next()).toEqual({ value: undefined, done: true });
  });
});

describe('SSE helper', () => {
  it('pings every 15 s by default (SPEC, Other constants)', () => {
    expect(loadConfig({}).streamPingMs).toBe(15_000);
  });

  it('sets the stream headers, pings through the injected timer, stops it when the stream ends', async () => {
    let tick: (() => void) | undefined;
    let interval = 0;
    let stopped = false;
    const repeat: Repeat = (fn, everyMs) => {
      tick = fn;
      interval = everyMs;
      return () => void (stopped = true);
    };
    const http = express();
    http.get('/sse', (_req, res) => {
      const sse = openSse(res, { pingMs: 15_000, repeat });
      sse.send({ type: 'token', data: { delta: 'a' } });
      tick!();
      tick!();
      sse.send({ type: 'done', data: {} });
      sse.end();
      sse.send({ type: 'late', data: {} });
    });
    const server: Server = await listen(http, 0, '127.0.0.1');
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`);
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
      expect(res.headers.get('x-accel-buffering')).toBe('no');
      expect(await res.text()).toBe(
        'data: {"type":"token","data":{"delta":"a"}}\n\n: ping\n\n: ping\n\ndata: {"type":"done","data":{}}\n\n',
      );
      expect(interval).toBe(15_000);
      expect(stopped).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
