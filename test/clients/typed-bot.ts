import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { projectRoot } from '../../engine/paths.js';

/**
 * The typed-client bot's life at test time: its types generated from the served document, its compile
 * in strict mode, and its runs. It is built in a folder under .artifacts/ (git-ignored) rather than the
 * system temp folder so that Node and the compiler find openapi-fetch in the project's node_modules.
 */
const BOT_SOURCE = path.join(projectRoot, 'test/clients/bot/bot.ts');

export interface BuiltBot {
  folder: string;
  /** The compiler's diagnostics, formatted; empty when the bot compiled. */
  diagnostics: string;
  /** The compiled bot, when it compiled. */
  script: string | undefined;
}

/** Generates `openapi.d.ts` from the document the service serves, then compiles the bot against it. */
export async function buildBot(serviceUrl: string): Promise<BuiltBot> {
  const folder = path.join(projectRoot, '.artifacts', `typed-client-${randomUUID().slice(0, 8)}`);
  await mkdir(folder, { recursive: true });
  const response = await fetch(`${serviceUrl}/openapi.json`);
  if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
  const types = astToString(await openapiTS(await response.json()));
  await writeFile(path.join(folder, 'openapi.d.ts'), types);
  await writeFile(path.join(folder, 'package.json'), '{ "type": "module" }\n');
  await copyFile(BOT_SOURCE, path.join(folder, 'bot.ts'));
  return { folder, ...compile(path.join(folder, 'bot.ts')) };
}

function compile(source: string): Pick<BuiltBot, 'diagnostics' | 'script'> {
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    typeRoots: [path.join(projectRoot, 'node_modules/@types')],
    // The project's libraries are checked by its own build; the generated types and the bot are checked here.
    skipLibCheck: true,
    noEmitOnError: true,
  };
  const program = ts.createProgram([source], options);
  const emitted = program.emit();
  const diagnostics = ts.sortAndDeduplicateDiagnostics([...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]);
  const formatted = ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => projectRoot,
    getNewLine: () => '\n',
  });
  return { diagnostics: formatted, script: emitted.emitSkipped ? undefined : source.replace(/\.ts$/, '.js') };
}

/** Runs the compiled bot as its own process, as a player's game would; resolves with what it printed. */
export async function runBot(bot: BuiltBot, orders: object): Promise<unknown> {
  if (!bot.script) throw new Error(`the bot did not compile:\n${bot.diagnostics}`);
  const { stdout } = await promisify(execFile)(process.execPath, [bot.script, JSON.stringify(orders)], { timeout: 20_000 });
  return JSON.parse(stdout);
}

export async function removeBot(bot: BuiltBot | undefined): Promise<void> {
  if (bot) await rm(bot.folder, { recursive: true, force: true });
}
