import assert from 'node:assert/strict';

/** Reads until `done` holds, every 100 ms, failing with the last value read after `seconds`. */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  seconds = 15,
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    assert.ok(Date.now() < deadline, `${what}: still ${JSON.stringify(value)?.slice(0, 1000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
