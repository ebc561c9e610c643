import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/lib/group-commit.js';

/** A flush the test releases by hand, recording every batch it was given. */
function manualFlush() {
  const batches: { key: string; items: number[] }[] = [];
  const gates: (() => void)[] = [];
  const flush = async (key: string, items: number[]) => {
    batches.push({ key, items: [...items] });
    await new Promise<void>((resolve) => gates.push(resolve));
    return items.map((n) => (n < 0 ? new Error(`refused ${n}`) : n * 10));
  };
  return { batches, flush, release: () => gates.shift()?.() };
}

describe('GroupCommit: one write for the requests that arrive together', () => {
  it('writes an idle key at once, then everything queued behind it in one batch, in arrival order', async () => {
    const m = manualFlush();
    const gc = new GroupCommit<number, number>({ flush: m.flush });
    const first = gc.submit('ws', 1);
    const rest = [2, 3, 4].map((n) => gc.submit('ws', n));
    expect(m.batches).toEqual([{ key: 'ws', items: [1] }]);
    m.release();
    expect(await first).toBe(10);
    await expect.poll(() => m.batches.length).toBe(2);
    expect(m.batches[1]).toEqual({ key: 'ws', items: [2, 3, 4] });
    m.release();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    expect(gc.pending).toBe(0);
  });

  it('keys are independent: a slow key never holds another', async () => {
    const m = manualFlush();
    const gc = new GroupCommit<number, number>({ flush: m.flush });
    const a = gc.submit('a', 1);
    const b = gc.submit('b', 2);
    expect(m.batches.map((x) => x.key)).toEqual(['a', 'b']);
    m.release();
    m.release();
    expect([await a, await b]).toEqual([10, 20]);
  });

  it('an item refused alone fails alone; a failed write fails its whole batch and the next batch still runs', async () => {
    let calls = 0;
    const gc = new GroupCommit<number, number>({
      flush: async (_key, items) => {
        calls += 1;
        if (calls === 3) throw new Error('connection lost');
        return items.map((n) => (n < 0 ? new Error(`refused ${n}`) : n));
      },
    });
    const [ok, refused] = await Promise.allSettled([gc.submit('k', 1), gc.submit('k', -1)]);
    expect(ok).toEqual({ status: 'fulfilled', value: 1 });
    expect(refused.status === 'rejected' && (refused.reason as Error).message).toBe('refused -1');
    await expect(gc.submit('k', 2)).rejects.toThrow('connection lost');
    await expect(gc.submit('k', 3)).resolves.toBe(3);
  });

  it('a batch never exceeds maxBatch', async () => {
    const m = manualFlush();
    const gc = new GroupCommit<number, number>({ flush: m.flush, maxBatch: 2 });
    const all = [1, 2, 3, 4, 5].map((n) => gc.submit('k', n));
    for (let i = 0; i < 3; i++) {
      await expect.poll(() => m.batches.length).toBe(i + 1);
      m.release();
    }
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50]);
    expect(m.batches.map((b) => b.items)).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('submitVia: an idle key is written by the caller\'s own write, called before it returns; a busy one queues for the flush', async () => {
    const m = manualFlush();
    const gc = new GroupCommit<number, number>({ flush: m.flush });
    const carried: number[][] = [];
    let done!: () => void;
    const own = gc.submitVia('ws', 1, async (items) => {
      carried.push([...items]);
      await new Promise<void>((resolve) => (done = resolve));
      return items.map((n) => n * 100);
    });
    // called at once, alone, and the flush is not
    expect(carried).toEqual([[1]]);
    expect(m.batches).toEqual([]);
    // while it is in flight, another caller's write is not used: its item waits for the flush
    let second = false;
    const queued = gc.submitVia('ws', 2, async (items) => {
      second = true;
      return items;
    });
    const plain = gc.submit('ws', 3);
    expect(second).toBe(false);
    done();
    expect(await own).toBe(100);
    await expect.poll(() => m.batches.length).toBe(1);
    expect(m.batches[0]).toEqual({ key: 'ws', items: [2, 3] });
    m.release();
    expect(await Promise.all([queued, plain])).toEqual([20, 30]);
    expect(second).toBe(false);
    // idle again: the next caller's write is used
    expect(await gc.submitVia('ws', 4, async (items) => items.map((n) => n + 1))).toBe(5);
  });
});
