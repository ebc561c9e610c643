/**
 * Templates of step configs: `{{ path }}` is replaced by the value at `path` in the run's context —
 * `input.<field>` (what the trigger received), `steps.<nodeKey>.<field>` (an earlier step's output),
 * `run.id`, `flow.id`, `flow.name`. A missing value renders as an empty string; an object or a list as
 * JSON.
 */
export interface TemplateContext {
  input: Record<string, unknown>;
  steps: Record<string, unknown>;
  run: { id: string };
  flow: { id: string; name: string };
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.\-[\]]+)\s*\}\}/g;

export function lookup(context: TemplateContext, path: string): unknown {
  let value: unknown = context;
  for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const asText = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);

export function render(template: string, context: TemplateContext): string {
  return template.replace(PLACEHOLDER, (_m, path: string) => asText(lookup(context, path)));
}

export type ConditionOp = 'equals' | 'notEquals' | 'contains' | 'exists' | 'greaterThan' | 'lessThan';

/** A condition node's test, on rendered values. Numbers compare as numbers when both sides are numeric. */
export function evaluate(left: string, op: ConditionOp, right: string): boolean {
  const numeric = left.trim() !== '' && right.trim() !== '' && Number.isFinite(Number(left)) && Number.isFinite(Number(right));
  switch (op) {
    case 'equals':
      return numeric ? Number(left) === Number(right) : left === right;
    case 'notEquals':
      return numeric ? Number(left) !== Number(right) : left !== right;
    case 'contains':
      return left.includes(right);
    case 'exists':
      return left.trim() !== '';
    case 'greaterThan':
      return numeric ? Number(left) > Number(right) : left > right;
    case 'lessThan':
      return numeric ? Number(left) < Number(right) : left < right;
  }
}
