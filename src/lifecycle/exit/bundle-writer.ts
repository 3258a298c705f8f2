import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** One file of an exit bundle as its manifest lists it. */
export interface ManifestFile {
  path: string;
  bytes: number;
  sha256: string;
}

export const MANIFEST = 'manifest.json';
export const BUNDLE_FORMAT = 'dpp-exit/1';

/**
 * Writes the files of a bundle under `root`, hashing each as it is written, and lists them (in the order
 * written) for the manifest. Paths are relative, with `/`.
 */
export class BundleWriter {
  readonly files: ManifestFile[] = [];
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  async write(path: string, content: string): Promise<void> {
    const full = join(this.root, path);
    await mkdir(dirname(full), { recursive: true });
    const bytes = Buffer.from(content, 'utf8');
    await writeFile(full, bytes);
    this.files.push({ path, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  }

  async writeJson(path: string, value: unknown): Promise<void> {
    await this.write(path, `${JSON.stringify(value, null, 2)}\n`);
  }

  /** A file written line by line (JSON Lines), never held whole in memory. */
  async lines(path: string): Promise<LineFile> {
    const full = join(this.root, path);
    await mkdir(dirname(full), { recursive: true });
    return new LineFile(createWriteStream(full), (bytes, sha256) => this.files.push({ path, bytes, sha256 }));
  }
}

export class LineFile {
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private readonly stream: WriteStream;
  private readonly done: (bytes: number, sha256: string) => void;

  constructor(stream: WriteStream, done: (bytes: number, sha256: string) => void) {
    this.stream = stream;
    this.done = done;
  }

  async add(line: string): Promise<void> {
    const chunk = Buffer.from(`${line}\n`, 'utf8');
    this.hash.update(chunk);
    this.bytes += chunk.length;
    if (!this.stream.write(chunk))
      await new Promise<void>((resolve) => this.stream.once('drain', () => resolve()));
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) =>
      this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    this.done(this.bytes, this.hash.digest('hex'));
  }
}
