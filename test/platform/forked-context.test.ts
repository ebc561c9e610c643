import { describe, expect, it } from 'vitest';
import { forkedContext, type ServiceContext } from '../../src/core/context.js';
import type { Em } from '../../src/db/types.js';

/** A context whose request EntityManager is forked lazily, as createContext's is, counting its forks. */
function lazyContext() {
  const forks: string[] = [];
  const emOf = (name: string): Em => ({ name, fork: () => (forks.push(name), emOf(`${name}>fork`)) }) as unknown as Em;
  let em: Em | undefined;
  const ctx = {
    get em(): Em {
      return (em ??= (forks.push('app'), emOf('request')));
    },
    set em(value: Em) {
      em = value;
    },
    requestId: 'req_1',
    clock: { now: () => new Date(0) },
  } as unknown as ServiceContext;
  return { ctx, forks };
}

describe('forkedContext', () => {
  it('forks nothing until its EntityManager is used, then once, from the context\'s', () => {
    const { ctx, forks } = lazyContext();
    const own = forkedContext(ctx);
    expect(forks).toEqual([]);
    expect(own.requestId).toBe('req_1');
    expect(own.clock).toBe(ctx.clock);
    const em = own.em as unknown as { name: string };
    expect(em.name).toBe('request>fork');
    expect(own.em).toBe(em);
    expect(forks).toEqual(['app', 'request']);
  });

  it('leaves the context\'s own EntityManager alone, and takes one set on it', () => {
    const { ctx } = lazyContext();
    const own = forkedContext(ctx);
    const given = { name: 'given' } as unknown as Em;
    own.em = given;
    expect(own.em).toBe(given);
    expect((ctx.em as unknown as { name: string }).name).toBe('request');
  });
});
