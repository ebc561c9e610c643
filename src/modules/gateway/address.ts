import { errors } from '../../errors/index.js';
import { MODEL_CLASSES, type ModelClass, type ModelProvider } from '../models/index.js';
import type { ModelRegistry } from '../models/index.js';

export const AUTO_ADDRESS = 'svc-auto';
export const SENSITIVE_ADDRESS = 'svc-sensitive';
const SENSITIVE_SUFFIX = '+sensitive';

/** A parsed `model` field. `sensitive`: the call must run on the local model and never leave the machine. */
export type Address =
  | { kind: 'auto'; sensitive: boolean }
  | { kind: 'agent'; slug: string; sensitive: boolean }
  | { kind: 'named'; name: string; sensitive: boolean };

/**
 * `agent:<slug>`, `svc-auto`, `svc-sensitive`, any model name, each with an optional `+sensitive`
 * suffix. `debate:...` is reserved (501).
 */
export function parseAddress(model: string): Address {
  const raw = model.trim();
  if (/^debate:/i.test(raw)) throw errors.addressNotSupported(raw);
  const sensitive = raw.toLowerCase().endsWith(SENSITIVE_SUFFIX);
  const base = sensitive ? raw.slice(0, -SENSITIVE_SUFFIX.length).trim() : raw;
  const lower = base.toLowerCase();
  if (lower === SENSITIVE_ADDRESS) return { kind: 'auto', sensitive: true };
  if (lower === AUTO_ADDRESS) return { kind: 'auto', sensitive };
  if (/^agent:/i.test(base)) {
    const slug = base.slice('agent:'.length).trim().toLowerCase();
    if (!slug) throw errors.modelNotFound(raw);
    return { kind: 'agent', slug, sensitive };
  }
  if (!base) throw errors.validation('model', 'model is required');
  return { kind: 'named', name: base, sensitive };
}

/**
 * The class a model name suggests, from the well-known families (largest first). Unknown names give
 * undefined: the default model answers them.
 */
const family = (alternatives: string): RegExp => new RegExp(`(^|[^a-z0-9])(${alternatives})(?![a-z])`, 'i');
const NAME_CLASSES: [RegExp, ModelClass][] = [
  [family('gpt-5(?![.\\d]*-(mini|nano))|gpt-4\\.5|o\\d-pro|opus|405b|ultra'), 'frontier'],
  [family('o[1-4](?!-mini)|gpt-4(?![o.])|large|70b|72b|pro'), 'premium'],
  [family('gpt-4o(?!-mini)|gpt-4\\.1(?!-(mini|nano))|sonnet|medium|[23]\\db'), 'advanced'],
  [family('mini|haiku|small|flash|1\\db|[7-9]b|gpt-3\\.5'), 'standard'],
  [family('nano|tiny|[0-6](\\.\\d)?b|local'), 'light'],
];

export function classOfModelName(name: string): ModelClass | undefined {
  return NAME_CLASSES.find(([re]) => re.test(name))?.[1];
}

const rank = (c: ModelClass): number => MODEL_CLASSES.indexOf(c);

export interface ProviderChoice {
  provider: ModelProvider;
  /** The caller's tools are forwarded (the provider takes tools). */
  toolsForwarded: boolean;
}

/**
 * Picks the model for a non-agent address.
 * - sensitive: the local model, always (it takes no tools: they are not forwarded).
 * - a configured model named exactly (model or provider name): that one.
 * - otherwise the cheapest model at or above a floor class: `svc-auto` has floor light (the built-in
 *   local model, which is extractive, only counts when no model server is configured), a known model
 *   family sets the floor to its class, an unknown name to the default's class. Tools raise `svc-auto`'s
 *   floor to standard and exclude models that cannot call tools. When nothing reaches the floor, the
 *   heaviest eligible model answers. Ties go to the default model.
 */
export function chooseProvider(registry: ModelRegistry, address: Exclude<Address, { kind: 'agent' }>, hasTools: boolean): ProviderChoice {
  const local = registry.local();
  if (address.sensitive) return { provider: local, toolsForwarded: hasTools && local.supportsTools };
  const all = registry.all();
  const def = registry.default();
  if (address.kind === 'named') {
    const exact = all.find((p) => p.model === address.name || p.name === address.name);
    if (exact && (!hasTools || exact.supportsTools)) return { provider: exact, toolsForwarded: hasTools };
  }
  const remote = all.filter((p) => !p.local);
  const pool = remote.length > 0 ? remote : [local];
  let floor: ModelClass =
    address.kind === 'auto' ? 'light' : (classOfModelName(address.name) ?? def.modelClass);
  if (hasTools && address.kind === 'auto' && rank(floor) < rank('standard')) floor = 'standard';
  const capable = hasTools && pool.some((p) => p.supportsTools) ? pool.filter((p) => p.supportsTools) : pool;
  // The default first, so that it wins ties.
  const ordered = [...capable].sort((a, b) => Number(b === def) - Number(a === def));
  const atFloor = ordered.filter((p) => rank(p.modelClass) >= rank(floor));
  const provider =
    atFloor.length > 0
      ? atFloor.reduce((best, p) => (rank(p.modelClass) < rank(best.modelClass) ? p : best))
      : ordered.reduce((best, p) => (rank(p.modelClass) > rank(best.modelClass) ? p : best));
  return { provider, toolsForwarded: hasTools && provider.supportsTools };
}
