/**
 * What the flow editor's inspector asks for each step type: the fields of the step's `config` as the
 * service validates them (src/modules/flows/flows.schemas.ts, NODE_CONFIGS), in words, with the checks a
 * person can see before saving. The service stays the judge: on Save its `validateFlow` problems are
 * shown on the steps they name.
 */
export type FieldKind = 'text' | 'multiline' | 'number' | 'select' | 'agent' | 'collections' | 'json';

export interface StepField {
  name: string;
  label: string;
  kind: FieldKind;
  required?: boolean;
  options?: readonly string[];
  hint?: string;
  max?: number;
}

export interface StepKind {
  type: string;
  label: string;
  help: string;
  fields: StepField[];
  /** The labels an edge leaving this step can carry (`when`). */
  branches?: readonly string[];
}

const TEMPLATE_HINT = 'Text; {{input.x}} and {{steps.<key>.<field>}} insert earlier values.';

export const FLOW_TRIGGER_EVENTS = ['source.ingested', 'source.failed', 'knowledge.contradiction_detected'] as const;

export const STEP_KINDS: StepKind[] = [
  { type: 'trigger.manual', label: 'Start by hand', help: 'The flow starts when someone presses Run now (or through the API).', fields: [] },
  {
    type: 'trigger.schedule',
    label: 'Start on a schedule',
    help: 'The flow starts at the times a cron expression names, once enabled.',
    fields: [
      { name: 'cron', label: 'Cron expression', kind: 'text', required: true, hint: 'Five fields: minute hour day month weekday, e.g. 0 9 * * 1-5', max: 200 },
      { name: 'timezone', label: 'Time zone', kind: 'text', hint: 'e.g. Europe/Paris; UTC when empty', max: 100 },
    ],
  },
  { type: 'trigger.webhook', label: 'Start from a webhook', help: 'The flow starts when its signed webhook URL is called (secret shown once at creation).', fields: [] },
  {
    type: 'trigger.event',
    label: 'Start on an event',
    help: 'The flow starts when the workspace emits the event, once enabled.',
    fields: [{ name: 'event', label: 'Event', kind: 'select', required: true, options: FLOW_TRIGGER_EVENTS }],
  },
  {
    type: 'agent.ask',
    label: 'Ask an agent',
    help: 'An agent answers a prompt; its answer is {{steps.<key>.content}}.',
    fields: [
      { name: 'agentId', label: 'Agent', kind: 'agent', required: true },
      { name: 'prompt', label: 'Prompt', kind: 'multiline', required: true, hint: TEMPLATE_HINT, max: 8000 },
    ],
  },
  {
    type: 'knowledge.query',
    label: 'Search knowledge',
    help: 'Finds passages in the documents; they are {{steps.<key>.results}}.',
    fields: [
      { name: 'query', label: 'Query', kind: 'text', required: true, hint: TEMPLATE_HINT, max: 2000 },
      { name: 'collectionIds', label: 'Collections', kind: 'collections', hint: 'None chosen: every document of the workspace.' },
      { name: 'topK', label: 'Passages (1 to 20)', kind: 'number', max: 20 },
    ],
  },
  {
    type: 'verify.text',
    label: 'Verify a text',
    help: 'Checks each claim of a text against the chosen collections.',
    fields: [
      { name: 'text', label: 'Text to verify', kind: 'multiline', required: true, hint: TEMPLATE_HINT, max: 20000 },
      { name: 'collectionIds', label: 'Collections', kind: 'collections', required: true },
    ],
  },
  {
    type: 'condition',
    label: 'Condition',
    help: 'Goes on along the edge labelled true or false.',
    branches: ['true', 'false'],
    fields: [
      { name: 'left', label: 'Value', kind: 'text', hint: TEMPLATE_HINT, max: 2000 },
      { name: 'op', label: 'Test', kind: 'select', required: true, options: ['equals', 'notEquals', 'contains', 'exists', 'greaterThan', 'lessThan'] },
      { name: 'right', label: 'Compared with', kind: 'text', max: 2000 },
    ],
  },
  { type: 'transform', label: 'Compose a text', help: 'Builds a text from earlier values; it is {{steps.<key>.text}}.', fields: [{ name: 'template', label: 'Template', kind: 'multiline', required: true, hint: TEMPLATE_HINT, max: 20000 }] },
  { type: 'wait', label: 'Wait', help: 'Pauses the run, then goes on.', fields: [{ name: 'seconds', label: 'Seconds', kind: 'number', required: true, max: 30 * 24 * 3600 }] },
  {
    type: 'approval',
    label: 'Ask for approval',
    help: 'The run waits until a person approves or rejects in the inbox; go on along the edge labelled approved or rejected.',
    branches: ['approved', 'rejected'],
    fields: [
      { name: 'question', label: 'Question', kind: 'text', required: true, hint: 'What the person decides, as they will read it in the inbox.', max: 2000 },
      { name: 'data', label: 'Details shown with it', kind: 'multiline', hint: TEMPLATE_HINT, max: 20000 },
      { name: 'timeoutSeconds', label: 'Expires after (seconds)', kind: 'number', hint: 'Empty: the service default.', max: 30 * 24 * 3600 },
    ],
  },
  {
    type: 'http.request',
    label: 'Call a URL',
    help: 'Sends an HTTP request (needs an approval before it unless the flow may call out unattended).',
    fields: [
      { name: 'method', label: 'Method', kind: 'select', required: true, options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
      { name: 'url', label: 'URL', kind: 'text', required: true, max: 2048 },
      { name: 'headers', label: 'Headers (JSON object)', kind: 'json', hint: '{"x-name": "value"}' },
      { name: 'body', label: 'Body', kind: 'multiline', hint: TEMPLATE_HINT, max: 100000 },
    ],
  },
  {
    type: 'mail.send',
    label: 'Send an e-mail',
    help: 'Sends a mail (needs an approval before it unless the flow may call out unattended).',
    fields: [
      { name: 'to', label: 'To', kind: 'text', required: true, max: 320 },
      { name: 'subject', label: 'Subject', kind: 'text', required: true, max: 500 },
      { name: 'body', label: 'Body', kind: 'multiline', required: true, hint: TEMPLATE_HINT, max: 100000 },
    ],
  },
];

export const stepKindOf = (type: string): StepKind | undefined => STEP_KINDS.find((k) => k.type === type);

export type StepConfig = Record<string, unknown>;

/** The problems a person can fix before saving, per field name (empty when none). */
export function checkStep(type: string, config: StepConfig | undefined): Record<string, string> {
  const kind = stepKindOf(type);
  if (!kind) return { type: `Unknown step type "${type}"` };
  const out: Record<string, string> = {};
  const c = config ?? {};
  for (const f of kind.fields) {
    const v = c[f.name];
    const empty = v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
    if (empty) {
      if (f.required) out[f.name] = `${f.label} is required`;
      continue;
    }
    if (f.kind === 'number') {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < (f.name === 'topK' ? 1 : 0)) out[f.name] = `${f.label}: a whole number`;
      else if (f.max !== undefined && v > f.max) out[f.name] = `${f.label}: at most ${f.max}`;
    } else if (f.kind === 'json') {
      if (typeof v !== 'object' || Array.isArray(v)) out[f.name] = `${f.label}: a JSON object, e.g. {"x-name": "value"}`;
    } else if (f.kind === 'select') {
      if (!f.options?.includes(String(v))) out[f.name] = `${f.label}: choose one of ${f.options?.join(', ')}`;
    } else if (typeof v === 'string' && f.max !== undefined && v.length > f.max) {
      out[f.name] = `${f.label}: at most ${f.max} characters`;
    }
  }
  return out;
}

/** A config with one field set from what the person typed (empty removes it; numbers and JSON parsed). */
export function setField(config: StepConfig | undefined, field: StepField, raw: string | string[]): StepConfig {
  const next: StepConfig = { ...(config ?? {}) };
  if (Array.isArray(raw)) {
    if (raw.length) next[field.name] = raw;
    else delete next[field.name];
    return next;
  }
  if (raw === '') {
    delete next[field.name];
    return next;
  }
  if (field.kind === 'number') next[field.name] = /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  else if (field.kind === 'json') {
    try {
      next[field.name] = JSON.parse(raw);
    } catch {
      next[field.name] = raw;
    }
  } else next[field.name] = raw;
  return next;
}

/** How a field's value reads back in its input. */
export function fieldText(config: StepConfig | undefined, field: StepField): string {
  const v = config?.[field.name];
  if (v === undefined || v === null) return '';
  if (field.kind === 'json' && typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A key no step has yet: the type's last word and a number (`approval_2`). */
export function freshKey(type: string, taken: readonly string[]): string {
  const base = (type.split('.').pop() ?? 'step').replace(/[^a-z0-9_]/gi, '_');
  for (let i = 1; ; i++) {
    const key = `${base}_${i}`;
    if (!taken.includes(key)) return key;
  }
}
