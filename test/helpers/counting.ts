import pg from 'pg';
import { testEngine } from './context.js';

/**
 * Counts what the in-process engine sends while `work` runs: the Redis commands naming one board's
 * keys, and every PostgreSQL query. For tests of what a read costs.
 */
export async function counting<T>(
  board: { internalId: number },
  work: () => Promise<T>,
): Promise<{ result: T; commands: string[]; queries: string[] }> {
  const redis = testEngine().redis as unknown as {
    sendCommand: (command: { name: string; args: unknown[] }, ...rest: unknown[]) => unknown;
  };
  const client = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const sendCommand = redis.sendCommand;
  const query = client.query;
  const commands: string[] = [];
  const queries: string[] = [];
  const tag = `:lb:{${board.internalId}}`;
  redis.sendCommand = function (this: unknown, command, ...rest) {
    const text = `${command.name} ${command.args.map((arg) => String(arg)).join(' ')}`;
    if (text.includes(tag)) commands.push(text.slice(0, 200));
    return sendCommand.call(this, command, ...rest);
  };
  client.query = function (this: unknown, ...args: unknown[]) {
    const [first] = args;
    queries.push(String(typeof first === 'object' && first !== null && 'text' in first ? first.text : first).slice(0, 200));
    return query.apply(this, args);
  };
  try {
    return { result: await work(), commands, queries };
  } finally {
    redis.sendCommand = sendCommand;
    client.query = query;
  }
}
