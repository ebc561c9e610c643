import { describe, expect, it } from 'vitest';
import { applyChatEvent, endTurn, startTurn, stopTurn, type ChatEvent } from '../../console/src/lib/chat-stream.js';
import { splitCitations } from '../../console/src/lib/citations.js';
import { asError, ConsoleError, failureOf, fieldMatches, isSignedOut, messageOf, nativeError, NETWORK_MESSAGE, waitMessage, withFieldLabel } from '../../console/src/lib/errors.js';
import { count, inSentence } from '../../console/src/lib/format.js';
import { linesToList } from '../../console/src/lib/lines.js';
import { hrefOf, invitationTokenOf, parseRoute } from '../../console/src/lib/routes.js';
import { uploadOutcome } from '../../console/src/lib/upload-outcome.js';
import { usageColumns } from '../../console/src/lib/usage-chart.js';

describe('routes', () => {
  it('parses the console paths and builds them back', () => {
    expect(parseRoute('/console')).toEqual({ screen: 'agents' });
    expect(parseRoute('/console/')).toEqual({ screen: 'agents' });
    expect(parseRoute('/console/chat')).toEqual({ screen: 'chat' });
    expect(parseRoute('/console/chat/ses_1')).toEqual({ screen: 'chat', id: 'ses_1' });
    expect(parseRoute('/console/accept-invitation')).toEqual({ screen: 'accept-invitation' });
    expect(parseRoute('/console/chat/a/b')).toEqual({ screen: 'not-found', path: '/console/chat/a/b' });
    expect(parseRoute('/console/nope')).toEqual({ screen: 'not-found', path: '/console/nope' });
    expect(parseRoute(hrefOf('proofs', 'prf 1/2'))).toEqual({ screen: 'proofs', id: 'prf 1/2' });
  });

  it('reads the invitation token from the fragment only when well formed', () => {
    expect(invitationTokenOf('#invite=abc_DEF-1')).toBe('abc_DEF-1');
    expect(invitationTokenOf('#reset=abc')).toBeNull();
    expect(invitationTokenOf('#invite=a b')).toBeNull();
    expect(invitationTokenOf('')).toBeNull();
  });
});

describe('errors shown to the person', () => {
  it('takes the catalogue message and code of the first GraphQL error', () => {
    const err = { graphQLErrors: [{ message: 'Agent not found: agt_1', extensions: { code: 'not_found' } }], networkError: undefined };
    expect(failureOf(err)).toEqual({ message: 'Agent not found: agt_1', code: 'not_found' });
    expect(isSignedOut({ graphQLErrors: [{ message: 'Not signed in', extensions: { code: 'unauthorized' } }] })).toBe(true);
  });

  it('never shows a raw stack or body: network failures and unknown errors get a plain sentence', () => {
    expect(failureOf({ graphQLErrors: [], networkError: new Error('TypeError: fetch failed at x.js:1') })).toEqual({ message: NETWORK_MESSAGE });
    expect(failureOf(new Error('boom at stack'))).toEqual({ message: 'Something went wrong. Try again.' });
  });

  it('reads the native shape of the /auth routes', () => {
    expect(nativeError(401, { error: 'Invalid e-mail or password' })).toEqual(new ConsoleError('Invalid e-mail or password', 'unauthorized'));
    expect(failureOf(nativeError(429, { error: 'Rate limit exceeded', code: 'rate_limited' }))).toEqual({ message: 'Rate limit exceeded', code: 'rate_limited' });
    expect(failureOf(nativeError(502, '<html>bad gateway</html>')).message).toBe('The service failed to answer. Try again in a moment.');
  });
});

describe('the wait after too many attempts', () => {
  it('words retry-after in seconds or whole minutes, and copes without it', () => {
    expect(waitMessage('900')).toBe('Too many attempts. Try again in 15 minutes.');
    expect(waitMessage('61')).toBe('Too many attempts. Try again in 2 minutes.');
    expect(waitMessage('60')).toBe('Too many attempts. Try again in 1 minute.');
    expect(waitMessage('1')).toBe('Too many attempts. Try again in 1 second.');
    expect(waitMessage('42')).toBe('Too many attempts. Try again in 42 seconds.');
    expect(waitMessage(null)).toBe('Too many attempts. Wait a few minutes, then try again.');
    expect(waitMessage('soon')).toBe('Too many attempts. Wait a few minutes, then try again.');
  });
});

describe('a streamed chat turn', () => {
  const passage = { ref: 1, sourceName: 'policy.md', chunkPreview: 'Refunds within 30 days', page: 1, section: 'Refunds' };
  const events: ChatEvent[] = [
    { __typename: 'ChatStageEvent', name: 'retrieval', phase: 'start' },
    { __typename: 'ChatKnowledgeEvent', items: [passage] },
    { __typename: 'ChatStageEvent', name: 'retrieval', phase: 'end', ms: 12 },
    { __typename: 'ChatMoodEvent', mood: { name: 'Ada', emotion: 'calm', intensity: 0.4, agentId: 'agt_1', valence: 0, arousal: 0 } as never },
    { __typename: 'ChatToolCallEvent', toolName: 'lookup' },
    { __typename: 'ChatToolResultEvent', toolName: 'lookup', success: true, durationMs: 5 },
    { __typename: 'ChatTokenEvent', delta: 'Refunds ' },
    { __typename: 'ChatTokenEvent', delta: 'within 30 days [1].' },
  ];

  it('appends tokens as they arrive and keeps stages, mood, tool calls and passages', () => {
    const state = events.reduce(applyChatEvent, startTurn());
    expect(state).toMatchObject({
      status: 'streaming',
      text: 'Refunds within 30 days [1].',
      tokens: 2,
      stages: [{ name: 'retrieval', phase: 'end', ms: 12 }],
      mood: { name: 'Ada', emotion: 'calm', intensity: 0.4 },
      toolCalls: [{ toolName: 'lookup', done: true, success: true, durationMs: 5 }],
      passages: [passage],
    });
  });

  it('ends with the service text on done, with the error on an error event, and ignores what comes after', () => {
    const streaming = events.reduce(applyChatEvent, startTurn());
    const result = { sessionId: 'ses_1', agentName: 'Ada', content: 'Refunds within 30 days [1]. (masked)', knowledgeUsed: [passage] };
    const done = applyChatEvent(streaming, { __typename: 'ChatDoneEvent', result });
    expect(done).toMatchObject({ status: 'done', text: result.content, result });
    expect(applyChatEvent(done, { __typename: 'ChatTokenEvent', delta: 'late' })).toBe(done);

    const failed = applyChatEvent(streaming, { __typename: 'ChatErrorEvent', error: 'Model unavailable', code: 'model_unavailable' });
    expect(failed).toMatchObject({ status: 'failed', error: { message: 'Model unavailable', code: 'model_unavailable' }, text: streaming.text });
  });

  it('stop keeps what arrived; a stream cut short without done is a failure', () => {
    const streaming = events.reduce(applyChatEvent, startTurn());
    expect(stopTurn(streaming)).toMatchObject({ status: 'stopped', text: streaming.text });
    expect(endTurn(streaming).status).toBe('failed');
    expect(endTurn(stopTurn(streaming)).status).toBe('stopped');
  });
});

describe('citations', () => {
  it('turns [n] of known passages into citations and leaves other brackets as text', () => {
    expect(splitCitations('A [1] and [2], not [9].', new Set([1, 2]))).toEqual([
      { kind: 'text', text: 'A ' },
      { kind: 'cite', ref: 1 },
      { kind: 'text', text: ' and ' },
      { kind: 'cite', ref: 2 },
      { kind: 'text', text: ', not [9].' },
    ]);
    expect(splitCitations('[1][1]', new Set([1]))).toEqual([
      { kind: 'cite', ref: 1 },
      { kind: 'cite', ref: 1 },
    ]);
    expect(splitCitations('no refs', new Set())).toEqual([{ kind: 'text', text: 'no refs' }]);
  });
});

describe('form helpers and the usage chart', () => {
  it('one item per line, trimmed, blanks and repeats dropped', () => {
    expect(linesToList(' tax law \n\nVAT\r\ntax law\n  ')).toEqual(['tax law', 'VAT']);
  });

  it('aligns the days by date in Unix seconds', () => {
    const cols = usageColumns([
      { date: '2026-11-02', questions: 3, answers: 2, controls: 1 },
      { date: '2026-11-01', questions: 5, answers: 5, controls: 0 },
    ]);
    expect(cols).toEqual([[Date.UTC(2026, 10, 1) / 1000, Date.UTC(2026, 10, 2) / 1000], [5, 3], [5, 2], [0, 1]]);
  });
});

describe('knowledge scope changes', () => {
  it('links what is wanted and new, unlinks what is no longer wanted', async () => {
    const { scopeChanges } = await import('../../console/src/lib/scope.js');
    expect(scopeChanges(['kcol_a', 'ksrc_b'], ['ksrc_b', 'ksrc_c'])).toEqual({ link: ['ksrc_c'], unlink: ['kcol_a'] });
    expect(scopeChanges([], [])).toEqual({ link: [], unlink: [] });
  });
});

describe('a debate followed live', () => {
  it('builds each turn from its tokens, in the order turns start, then the synthesis and done', async () => {
    const { applyDebateEvent, endDebate, startDebate, stopDebate } = await import('../../console/src/lib/debate-stream.js');
    const synthesis = { verdict: 'contested', recommendation: 'Pilot first', confidence: 0.6, agreements: ['Cost matters'], disagreements: [], content: 'S' };
    const s = [
      { __typename: 'DebateStartEvent', conversationId: 'cnv_1', topic: 'Remote work?' },
      { __typename: 'DebateTurnStartEvent', messageId: 'm1', agentName: 'Ada', round: 1, isDevilsAdvocate: false },
      { __typename: 'DebateTokenEvent', messageId: 'm1', delta: 'Yes, ' },
      { __typename: 'DebateTurnStartEvent', messageId: 'm2', agentName: 'Bo', round: 1, isDevilsAdvocate: true },
      { __typename: 'DebateTokenEvent', messageId: 'm1', delta: 'mostly.' },
      { __typename: 'DebateTokenEvent', messageId: 'm2', delta: 'No.' },
      { __typename: 'DebateTurnEndEvent', message: { id: 'm2', content: 'No (final).' } },
      { __typename: 'DebateSynthesisEvent', synthesis },
    ].reduce((st, e) => applyDebateEvent(st, e as never), startDebate('Remote work?'));
    expect(s.conversationId).toBe('cnv_1');
    expect(s.turns.map((t) => [t.agentName, t.text, t.done, t.isDevilsAdvocate])).toEqual([
      ['Ada', 'Yes, mostly.', false, false],
      ['Bo', 'No (final).', true, true],
    ]);
    expect(s.synthesis).toEqual(synthesis);
    expect(applyDebateEvent(s, { __typename: 'DebateDoneEvent' }).status).toBe('done');
    expect(applyDebateEvent(s, { __typename: 'DebateErrorEvent', error: 'Not enough agents', code: 'validation_failed' })).toMatchObject({
      status: 'failed',
      error: { message: 'Not enough agents', code: 'validation_failed' },
    });
    expect(stopDebate(s).status).toBe('stopped');
    expect(endDebate(s).status).toBe('failed');
  });

  it("keeps each turn's cited passages, from the citations event or the turn's end, so [n] opens them", async () => {
    const { applyDebateEvent, startDebate } = await import('../../console/src/lib/debate-stream.js');
    const p1 = { ref: 1, sourceName: 'policy.md', chunkPreview: 'Refunds within 30 days', page: 1, section: 'Refunds', dossierName: null };
    const p2 = { ...p1, ref: 2, chunkPreview: 'Delivery in 2 days' };
    const s = [
      { __typename: 'DebateTurnStartEvent', messageId: 'm1', agentName: 'Ada', round: 1, isDevilsAdvocate: false },
      { __typename: 'DebateCitationsEvent', messageId: 'm1', items: [p1] },
      { __typename: 'DebateTokenEvent', messageId: 'm1', delta: 'Within 30 days [1].' },
      { __typename: 'DebateTurnStartEvent', messageId: 'm2', agentName: 'Bo', round: 1, isDevilsAdvocate: true },
      { __typename: 'DebateTurnEndEvent', message: { id: 'm2', content: 'Two days [2].', knowledgeUsed: [p2] } },
      { __typename: 'DebateTurnEndEvent', message: { id: 'm1', content: 'Within 30 days [1].', knowledgeUsed: [] } },
    ].reduce((st, e) => applyDebateEvent(st, e as never), startDebate('Refunds?'));
    expect(s.turns.map((t) => t.passages)).toEqual([[p1], [p2]]);
  });
});

describe('flow graph in the editor', () => {
  it('lays nodes out by depth from the triggers and writes the document back with unknown fields kept', async () => {
    const { layout, parseGraph, toGraph, toViewEdges } = await import('../../console/src/lib/flow-graph.js');
    const doc = parseGraph({
      nodes: [
        { key: 'done', type: 'transform', config: { template: 'x' } },
        { key: 'start', type: 'trigger.manual' },
        { key: 'ok', type: 'approval' },
        { key: 'orphan', type: 'wait' },
      ],
      edges: [
        { from: 'start', to: 'ok' },
        { from: 'ok', to: 'done', when: 'approved' },
        { from: 'orphan', to: 'orphan' },
      ],
    });
    const nodes = layout(doc);
    const y = Object.fromEntries(nodes.map((n) => [n.id, n.position.y]));
    expect(y.start).toBeLessThan(y.ok);
    expect(y.ok).toBeLessThan(y.done);
    expect(y.orphan).toBeGreaterThan(y.done);
    const edges = toViewEdges(doc);
    const back = toGraph(nodes, edges);
    // Written back with each node where it sits, everything else as it came.
    expect(back.edges).toEqual(doc.edges);
    expect(back.nodes.map(({ position: _p, ...n }) => n)).toEqual(doc.nodes);
    expect(back.nodes.map((n) => n.position)).toEqual(nodes.map((n) => n.position));
    expect(toGraph(nodes, [...edges, { source: 'done', target: 'orphan' }]).edges.at(-1)).toEqual({ from: 'done', to: 'orphan' });
    expect(parseGraph(null)).toEqual({ nodes: [], edges: [] });
  });

  it('places a node at its stored position, lays out the others, and saves moves in whole units', async () => {
    const { layout, parseGraph, toGraph } = await import('../../console/src/lib/flow-graph.js');
    const doc = parseGraph({
      nodes: [
        { key: 'start', type: 'trigger.manual', position: { x: 500, y: -40 } },
        { key: 'ok', type: 'approval' },
        { key: 'bad', type: 'wait', position: { x: 'left', y: 3 } },
      ],
      edges: [{ from: 'start', to: 'ok' }],
    });
    const nodes = layout(doc);
    expect(nodes[0]!.position).toEqual({ x: 500, y: -40 });
    expect(nodes[1]!.position).toEqual({ x: 40, y: 140 });
    expect(Number.isFinite(nodes[2]!.position.x)).toBe(true);
    const moved = nodes.map((n) => (n.id === 'ok' ? { ...n, position: { x: 310.6, y: 220.2 } } : n));
    expect(toGraph(moved, []).nodes[1]).toEqual({ key: 'ok', type: 'approval', position: { x: 311, y: 220 } });
    // Reopened, the graph is where it was left.
    expect(layout(parseGraph(toGraph(moved, []))).map((n) => n.position)).toEqual(toGraph(moved, []).nodes.map((n) => n.position));
  });
});

describe('flow step inspector rules', () => {
  it('names the fields a step still needs, parses numbers and JSON, and finds a free key', async () => {
    const { checkStep, setField, fieldText, freshKey, stepKindOf } = await import('../../console/src/lib/flow-steps.js');
    expect(checkStep('approval', {})).toEqual({ question: 'Question is required' });
    expect(checkStep('approval', { question: 'Ship?' })).toEqual({});
    expect(checkStep('wait', { seconds: 'soon' })).toEqual({ seconds: 'Seconds: a whole number' });
    expect(checkStep('wait', { seconds: 3_000_000 })).toEqual({ seconds: 'Seconds: at most 2592000' });
    expect(checkStep('condition', { op: 'maybe' })).toEqual({ op: 'Test: choose one of equals, notEquals, contains, exists, greaterThan, lessThan' });
    expect(checkStep('http.request', { method: 'GET', url: 'https://x.test', headers: 'nope' }).headers).toMatch(/JSON object/);
    expect(checkStep('mystery', {})).toEqual({ type: 'Unknown step type "mystery"' });
    const wait = stepKindOf('wait')!.fields[0];
    expect(setField({}, wait, '30')).toEqual({ seconds: 30 });
    expect(setField({ seconds: 30 }, wait, '')).toEqual({});
    const headers = stepKindOf('http.request')!.fields.find((f) => f.name === 'headers')!;
    expect(setField({}, headers, '{"a":"b"}')).toEqual({ headers: { a: 'b' } });
    expect(fieldText({ headers: { a: 'b' } }, headers)).toBe('{"a":"b"}');
    expect(freshKey('approval', ['approval_1'])).toBe('approval_2');
    expect(freshKey('trigger.manual', [])).toBe('manual_1');
  });
});

describe('the kind of a certificate in words', () => {
  it('tells debates and poste runs from chat turns by their route, and gateway calls by kind', async () => {
    const { proofLabelOf } = await import('../../console/src/lib/proof-kind.js');
    expect(proofLabelOf({ kind: 'gateway', route: 'POST /v1/chat/completions' })).toBe('gateway');
    expect(proofLabelOf({ kind: 'chat', route: 'POST /v1/responses' })).toBe('gateway');
    expect(proofLabelOf({ kind: 'chat', route: 'graphql chatStream' })).toBe('chat');
    expect(proofLabelOf({ kind: 'chat', route: 'graphql startConversation' })).toBe('debate');
    expect(proofLabelOf({ kind: 'chat', route: 'POST /v1/conversations/:id/messages' })).toBe('debate');
    expect(proofLabelOf({ kind: 'chat', route: 'POST /v1/postes/:key/run' })).toBe('poste run');
    expect(proofLabelOf({ kind: 'verify', route: 'POST /v1/verify' })).toBe('verifier report');
  });
});

describe('audit entry details', () => {
  it('reads as name: value pairs, lists joined, nothing for no details', async () => {
    const { detailsText } = await import('../../console/src/lib/audit-details.js');
    expect(detailsText({ role: 'member', email: 'grace@example.com' })).toBe('role: member · email: grace@example.com');
    expect(detailsText({ scopes: ['agents', 'knowledge'], expiresAt: null, readonly: false })).toBe('scopes: agents, knowledge · expiresAt: — · readonly: false');
    expect(detailsText({ limits: { perMinute: 60 } })).toBe('limits: {"perMinute":60}');
    expect(detailsText({})).toBe('');
    expect(detailsText(null)).toBe('');
  });
});

describe('counts in words', () => {
  it('one passage, one document, one question: singular for exactly one, plural otherwise (a new document read "1 passages")', () => {
    expect(count(1, 'passage')).toBe('1 passage');
    expect(count(0, 'passage')).toBe('0 passages');
    expect(count(2, 'document')).toBe('2 documents');
    expect(count(1, 'question')).toBe('1 question');
    expect(count(3, 'entry', 'entries')).toBe('3 entries');
  });
});

describe('labels inside a sentence', () => {
  it('keeps an acronym that opens the label ("Search API keys", once "Search api keys") and lowers an ordinary first word', () => {
    expect(inSentence('API keys')).toBe('API keys');
    expect(inSentence('Documents')).toBe('documents');
    expect(inSentence('Audit entries, newest first')).toBe('audit entries, newest first');
    expect(inSentence('A')).toBe('a');
  });
});

describe('a refused field named as the form labels it', () => {
  const labels = { name: 'Name', monthlyQuestionLimit: 'Questions per month' };
  const refusal = (message: string, field?: string) => ({ graphQLErrors: [{ message, extensions: { code: 'validation_failed', ...(field ? { field } : {}) } }] });

  it('replaces the API field name that opens the message with its label', () => {
    expect(failureOf(refusal('monthlyQuestionLimit must be a positive whole number', 'monthlyQuestionLimit'), labels)).toEqual({
      message: 'Questions per month must be a positive whole number',
      code: 'validation_failed',
      field: 'monthlyQuestionLimit',
    });
    expect(messageOf(refusal('name is required', 'name'), labels)).toBe('Name is required');
  });

  it('reads a dotted field path by its last name', () => {
    expect(withFieldLabel('input.name: Required', 'input.name', labels)).toBe('Name: Required');
  });

  it('reads an item of a list by the list: agentIds.1 is the Debaters', () => {
    const debate = { agentIds: 'Debaters', rounds: 'Rounds' };
    expect(withFieldLabel('agentIds must name at least 2 agents', 'agentIds.1', debate)).toBe('Debaters must name at least 2 agents');
    expect(withFieldLabel('rounds must be between 1 and 5', 'rounds', debate)).toBe('Rounds must be between 1 and 5');
  });

  it('keeps the refused field, so the form can mark it; a refusal made in the console or read from a stream keeps it too', () => {
    expect(failureOf(refusal('name is required', 'input.name')).field).toBe('input.name');
    expect(failureOf(refusal('Agent not found')).field).toBeUndefined();
    expect(failureOf(new ConsoleError('Choose at least one event.', undefined, 'events'))).toEqual({ message: 'Choose at least one event.', field: 'events' });
    const streamed = failureOf(refusal('rounds must be between 1 and 5', 'rounds'));
    expect(failureOf(asError(streamed), { rounds: 'Rounds' })).toEqual({ message: 'Rounds must be between 1 and 5', code: 'validation_failed', field: 'rounds' });
    expect(failureOf(nativeError(400, { error: 'password must be at least 10 characters', code: 'validation_failed', field: 'password' }), { password: 'The password' })).toEqual({
      message: 'The password must be at least 10 characters',
      code: 'validation_failed',
      field: 'password',
    });
  });

  it('matches a refused field to the control named by the whole path or one of its parts', () => {
    expect(fieldMatches('name', 'name')).toBe(true);
    expect(fieldMatches('input.name', 'name')).toBe(true);
    expect(fieldMatches('agentIds.1', 'agentIds')).toBe(true);
    expect(fieldMatches('names', 'name')).toBe(false);
    expect(fieldMatches('description', 'name')).toBe(false);
    expect(fieldMatches(undefined, 'name')).toBe(false);
  });

  it('leaves the message alone without labels, for a field the form does not label, or when the name is only a prefix of a word', () => {
    expect(messageOf(refusal('name is required', 'name'))).toBe('name is required');
    expect(messageOf(refusal('url must use https', 'url'), labels)).toBe('url must use https');
    expect(withFieldLabel('names must differ', 'name', labels)).toBe('names must differ');
    expect(withFieldLabel('Invalid webhook url', 'name', labels)).toBe('Invalid webhook url');
  });
});

describe('the line under an uploaded file', () => {
  it('says ingestion is running until the list reads the document, and while it ingests', () => {
    expect(uploadOutcome('a.md', undefined)).toEqual({ text: 'a.md uploaded: ingestion is running.', failed: false });
    expect(uploadOutcome('a.md', { status: 'ingesting', chunkCount: 0 })).toEqual({ text: 'a.md uploaded: ingestion is running.', failed: false });
  });

  it('says ready, with its passages, once the document is ready', () => {
    expect(uploadOutcome('a.md', { status: 'ready', chunkCount: 1 })).toEqual({ text: 'a.md uploaded and ready: 1 passage to cite.', failed: false });
    expect(uploadOutcome('a.md', { status: 'ready', chunkCount: 4 }).text).toBe('a.md uploaded and ready: 4 passages to cite.');
  });

  it('says why, as an error, when ingestion failed', () => {
    expect(uploadOutcome('a.pdf', { status: 'failed', chunkCount: 0, error: 'The PDF has no text layer.' })).toEqual({
      text: 'a.pdf uploaded, but could not be ingested: The PDF has no text layer.',
      failed: true,
    });
    expect(uploadOutcome('a.pdf', { status: 'failed', chunkCount: 0, error: null }).text).toBe('a.pdf uploaded, but could not be ingested.');
  });
});
