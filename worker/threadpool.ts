// Imported first by worker/main.ts, so it runs before anything uses libuv's thread pool (which reads the
// size once, on first use). Node's four threads serve every file operation, and the content store's
// `put` fsyncs twice per mint: a burst of mints queued on those fsyncs behind four threads
// (`npm run bench -- mint`: the metadata's put took 300-500 ms of a mint's first step). An fsync waits
// on the disk, not the CPU, so more threads let the disk take them together. UV_THREADPOOL_SIZE set by
// the deployment wins.
process.env.UV_THREADPOOL_SIZE ??= '16';
