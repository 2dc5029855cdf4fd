import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's root folder, whether this file runs from the source tree or from dist/: SQL
 * migrations, Lua scripts and static assets are read from the source folders in both cases.
 */
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + import.meta.url);
    dir = parent;
  }
  return dir;
}

export const projectRoot = findRoot();
export const sqlDir = path.join(projectRoot, 'sql');
export const luaDir = path.join(projectRoot, 'engine', 'live', 'scripts');
