// Loaded into the soaked server with `node --import` (bench/soak.ts): answers the bench's "memory" message
// with process.memoryUsage(), so the soak can tell a growing JavaScript heap from native memory. Nothing
// else of the server changes; the IPC channel does not keep the process alive.

process.on('message', (message) => {
  if (message === 'memory') process.send?.({ memory: process.memoryUsage() });
});
process.channel?.unref();
