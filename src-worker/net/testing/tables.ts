/**
 * Test helpers: a resolver that answers from a table (and counts its calls),
 * and readers for gateway responses. No test resolves a real name.
 */
import type { Resolver } from '../node/resolver.js';
import type { NetResponse } from '../gateway.js';

export interface TableResolver extends Resolver {
  calls: string[];
}

/**
 * Answers `table[name]`; a list of answers is used one per call (the last
 * repeats), which is how the rebinding tests change the answer between calls.
 */
export function tableResolver(table: Record<string, string[] | string[][]>): TableResolver {
  const calls: string[] = [];
  const answer = async (name: string): Promise<string[]> => {
    calls.push(name);
    const entry = table[name];
    if (!entry) {
      const err: NodeJS.ErrnoException = new Error(`${name}: not in the test table`);
      err.code = 'ENOTFOUND';
      throw err;
    }
    if (entry.length > 0 && Array.isArray(entry[0])) {
      const answers = entry as string[][];
      const nth = calls.filter((c) => c === name).length - 1;
      return answers[Math.min(nth, answers.length - 1)] as string[];
    }
    return entry as string[];
  };
  return Object.assign(answer, { calls });
}

export async function readAll(res: NetResponse): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of res.body) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

export async function readText(res: NetResponse): Promise<string> {
  return (await readAll(res)).toString('utf8');
}
