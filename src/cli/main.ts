/**
 * Foldlab's command line: the same core as the app, run in Node.
 *   npm run cli -- inspect <file> [--format F] [--counter o200k|cl100k|chars4|len3|chars] [--json]
 */
import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { ImportSession } from '../core/import/run.ts';
import { FORMAT_IDS, type FormatId } from '../core/import/types.ts';
import { inspect, type InspectReport } from '../core/inspect.ts';
import { getCounter, parseCounterId } from '../core/tokens/counters.ts';
import { countEntries } from '../core/tokens/entry-tokens.ts';

const USAGE = `usage: npm run cli -- inspect <file> [--format ${FORMAT_IDS.join('|')}] [--counter o200k|cl100k|chars4|len3|chars] [--json]`;

class UsageError extends Error {
  override name = 'UsageError';
}

interface Args {
  command: string;
  file: string;
  format?: FormatId;
  counter: string;
  json: boolean;
}

function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  let format: FormatId | undefined;
  let counter = 'o200k';
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const takeValue = (): string => {
      const value = argv[++i];
      if (value === undefined) throw new UsageError(`${arg} needs a value`);
      return value;
    };
    if (arg === '--json') json = true;
    else if (arg === '--format') {
      const value = takeValue();
      if (!(FORMAT_IDS as string[]).includes(value)) throw new UsageError(`--format must be one of ${FORMAT_IDS.join(', ')}; got "${value}"`);
      format = value as FormatId;
    } else if (arg === '--counter') counter = takeValue();
    else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
    else positional.push(arg);
  }
  const [command, file] = positional;
  if (command !== 'inspect') throw new UsageError(command ? `unknown command "${command}"` : 'missing command');
  if (!file) throw new UsageError('missing <file>');
  return { command, file, counter, json, ...(format ? { format } : {}) };
}

async function runInspect(args: Args): Promise<InspectReport> {
  const counterId = parseCounterId(args.counter);
  const size = statSync(args.file).size;
  const session = new ImportSession({ fileName: basename(args.file), size, ...(args.format ? { format: args.format } : {}) });
  for await (const chunk of createReadStream(args.file, { highWaterMark: 1 << 20 })) {
    session.push(chunk as Uint8Array);
  }
  const result = session.finish();
  const counter = await getCounter(counterId);
  const counts = countEntries(result.entries, counter);
  let total = 0;
  for (const value of counts.totals) total += value;
  return inspect(result, { counter: counterId, label: counter.label, total, byRole: counts.byRole, byKind: counts.byKind });
}

function printHuman(report: InspectReport): void {
  const lines = [
    `format        ${report.format}${report.title ? `  "${report.title}"` : ''}`,
    `entries       ${report.entries} (${report.kinds.message} messages, ${report.kinds.compaction} compaction markers, ${report.kinds.event} harness events)`,
    `roles         system ${report.roles.system}, user ${report.roles.user}, assistant ${report.roles.assistant}, tool ${report.roles.tool}`,
    `tool calls    ${report.toolCalls} (${report.orphanToolCalls} without result); results ${report.toolResults} (${report.orphanToolResults} without call)`,
    `branches      ${report.branches}`,
    `tokens        ${report.tokens.total.toLocaleString('en-US')} (${report.tokens.label})`,
    `problems      ${report.errors.length}`,
    ...report.errors.slice(0, 20).map((error) => `  line ${error.line}: ${error.message}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    const report = await runInspect(args);
    if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else printHuman(report);
  } catch (error) {
    const err = error as Error & { code?: string };
    const message = err.code === 'ENOENT' ? `no such file: ${args.file}` : `${err.name}: ${err.message}`;
    process.stderr.write(`${message}\n`);
    process.exitCode = 1;
  }
}

void main();
