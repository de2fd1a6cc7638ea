/**
 * The folder backend of the object store: a local folder laid out exactly like the bucket (the embedded default).
 */

import type { Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  assertSafeKey,
  downloadAtomically,
  isNotFoundError,
  type ObjectInfo,
  type ObjectStore,
  writeFileAtomically,
} from './object-store';

/** A local folder laid out exactly like the bucket. */
export class FolderObjectStore implements ObjectStore {
  readonly location: string;

  constructor(private readonly root: string) {
    this.location = `file://${path.resolve(root)}`;
  }

  private pathOf(key: string): string {
    return path.join(this.root, assertSafeKey(key));
  }

  private static infoOf(st: { size: number; mtimeMs: number }): ObjectInfo {
    return { etag: `${st.size}-${Math.trunc(st.mtimeMs * 1000)}`, size: st.size };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      return FolderObjectStore.infoOf(await stat(this.pathOf(key)));
    } catch (err) {
      if (isNotFoundError(err)) return null;
      throw err;
    }
  }

  async getBytes(key: string): Promise<{ body: Buffer; info: ObjectInfo } | null> {
    const file = this.pathOf(key);
    try {
      const [body, st] = await Promise.all([readFile(file), stat(file)]);
      return { body, info: FolderObjectStore.infoOf(st) };
    } catch (err) {
      if (isNotFoundError(err)) return null;
      throw err;
    }
  }

  async getRange(key: string, offset: number, length: number): Promise<Buffer> {
    const handle = await open(this.pathOf(key), 'r');
    try {
      const out = Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(out, done, length - done, offset + done);
        if (bytesRead === 0) throw new Error(`${key} is shorter than ${offset + length} bytes`);
        done += bytesRead;
      }
      return out;
    } finally {
      await handle.close();
    }
  }

  localFile(key: string): string {
    return this.pathOf(key);
  }

  async download(key: string, filePath: string, hash?: Hash): Promise<ObjectInfo | null> {
    const info = await this.head(key);
    if (info === null) return null;
    await downloadAtomically(filePath, () => createReadStream(this.pathOf(key)), hash);
    return info;
  }

  async put(key: string, body: Buffer | string, _contentType: string): Promise<ObjectInfo> {
    const file = this.pathOf(key);
    await writeFileAtomically(file, (tmp) => writeFile(tmp, body));
    return FolderObjectStore.infoOf(await stat(file));
  }

  async upload(key: string, filePath: string, _contentType: string): Promise<ObjectInfo> {
    const file = this.pathOf(key);
    await writeFileAtomically(file, (tmp) => pipeline(createReadStream(filePath), createWriteStream(tmp)));
    return FolderObjectStore.infoOf(await stat(file));
  }

  async getTags(_key: string): Promise<Record<string, string>> {
    return {};
  }

  async setTags(_key: string, _tags: Record<string, string>): Promise<void> {}

  async list(prefix: string): Promise<string[]> {
    const base = path.join(this.root, prefix.split('/').slice(0, -1).join('/'));
    let entries: string[];
    try {
      entries = await readdir(base, { recursive: true });
    } catch (err) {
      if (isNotFoundError(err)) return [];
      throw err;
    }
    const rel = path.relative(this.root, base);
    const keys: string[] = [];
    for (const entry of entries) {
      const key = (rel === '' ? entry : `${rel}/${entry}`).split(path.sep).join('/');
      if (!key.startsWith(prefix) || key.endsWith('.tmp')) continue;
      const st = await stat(path.join(this.root, key));
      if (st.isFile()) keys.push(key);
    }
    return keys.sort();
  }
}
