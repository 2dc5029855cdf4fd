// Adds lock entries for platform builds that the package registry reachable here does not serve
// (e.g. msgpackr-extract's darwin/win32 builds). Without them `npm ci` rejects the lock as out of
// sync (npm/cli#9846). Each entry is optional and limited to its platform, so no machine fetches
// one it cannot use. Run after changing dependencies: node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
const PLATFORM = /-(darwin|linux|win32|freebsd|android)-(arm64|x64|arm|ia32)(?:-(gnu|musl|msvc))?$/;
let added = 0;

for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location}/node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[nested] || packages[hoisted]) continue;
    const platform = PLATFORM.exec(name);
    if (!platform) continue;
    packages[hoisted] = { version, cpu: [platform[2]], license: entry.license, optional: true, os: [platform[1]] };
    added += 1;
  }
}

lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
writeFileSync(path, JSON.stringify(lock, null, 2) + '\n');
console.log(`complete-lockfile: added ${added} platform entr${added === 1 ? 'y' : 'ies'}`);
