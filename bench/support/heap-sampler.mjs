/**
 * A sampling heap profiler inside a server process, for bench/gateway-heap.ts (issue 28: where a
 * streamed call's garbage comes from). Preloaded with `NODE_OPTIONS=--import=<this file>`; SIGUSR2 starts
 * sampling (every object, also those a minor or major GC collected since: what was *allocated*, not what
 * is alive), the next SIGUSR2 stops it and writes the profile to HEAP_SAMPLER_OUT, then `{"heapProfile":
 * "<file>"}` on stderr. HEAP_SAMPLER_INTERVAL: the mean bytes between two samples (default 4096).
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';

const session = new Session();
session.connect();
let sampling = false;
const interval = Number(process.env.HEAP_SAMPLER_INTERVAL ?? 4096);

process.on('SIGUSR2', () => {
  void (async () => {
    if (!sampling) {
      sampling = true;
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: interval,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      process.stderr.write('{"heapSampling":"started"}\n');
      return;
    }
    sampling = false;
    const { profile } = await session.post('HeapProfiler.stopSampling');
    const out = process.env.HEAP_SAMPLER_OUT ?? `/tmp/heap-${process.pid}.heapprofile`;
    writeFileSync(out, JSON.stringify(profile));
    process.stderr.write(`${JSON.stringify({ heapProfile: out })}\n`);
  })();
});
