import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';

// Loaded into the soaked server with `node --import` (bench/soak.ts): answers the bench's "memory" message
// with process.memoryUsage() and the heap measured just after the last major (mark-sweep-compact) GC: the
// live set, which a JavaScript leak raises steadily while the sampled heap only saw-tooths. Nothing else of
// the server changes; the IPC channel does not keep the process alive.

let heapAfterMajorGc: number | null = null;
new PerformanceObserver((list) => {
  const major = list
    .getEntries()
    .some(
      (entry) =>
        (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ===
        constants.NODE_PERFORMANCE_GC_MAJOR,
    );
  if (major) heapAfterMajorGc = process.memoryUsage().heapUsed;
}).observe({ entryTypes: ['gc'] });

process.on('message', (message) => {
  if (message === 'memory') process.send?.({ memory: process.memoryUsage(), heapAfterMajorGc });
});
process.channel?.unref();
