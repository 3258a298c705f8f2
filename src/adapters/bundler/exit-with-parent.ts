// Preloaded into the alto process (node --import): alto exits when the process that started it is gone, even if
// that one was killed without running its exit hooks (a test runner's worker, a SIGKILLed service).
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 1_000).unref();
