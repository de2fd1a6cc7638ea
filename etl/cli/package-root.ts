/**
 * The folder holding the repository's package.json, wherever the ETL runs from: the parent of etl/ when tsx runs
 * the sources, two levels above dist/etl/ when node runs the compiled output (`npm run build:etl`, etl/Dockerfile).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The nearest folder at or above `from` that holds a package.json.
 * @param from where to start (default: this module's folder, etl/ or dist/etl/).
 * @returns that folder, or the parent of `from` when no folder up to the file-system root holds one.
 * @example packageRoot() // '/app' for /app/dist/etl/package-root.js
 */
export function packageRoot(from: string = __dirname): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '..');
  }
}
