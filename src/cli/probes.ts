/**
 * `npm run cli -- probes <file> [--format F] [--json]`: every retention probe a session yields, the
 * same list the replay scores: category, kind, text, source entry and line; for errors whether
 * and where they were resolved. Exit code 1 for an unreadable file, 2 for a usage error.
 */
import { FORMAT_IDS, type FormatId } from '../core/import/types.ts';
import { listProbes, type ListedProbe } from '../core/probes/listing.ts';
import { importFile } from './load.ts';

export interface ProbesReport {
  file: string;
  format: FormatId;
  /** Root conversations the file holds (each listed on its own). */
  conversations: number;
  probes: ListedProbe[];
}

export async function runProbes(file: string, format?: FormatId): Promise<ProbesReport> {
  const result = await importFile(file, format);
  const probes = listProbes(result.entries);
  const conversations = probes.reduce((most, probe) => Math.max(most, probe.conversation), 0);
  return { file, format: result.format, conversations, probes };
}

/** One line per probe: `line 12  error  resolved (line 20)  Bash: npm test → 2 failed`. */
export function formatProbes(report: ProbesReport): string {
  const counts = new Map<string, number>();
  for (const probe of report.probes) counts.set(probe.category, (counts.get(probe.category) ?? 0) + 1);
  const header = `${report.file}: ${report.probes.length} probes (${[...counts].map(([category, n]) => `${n} ${category}`).join(', ') || 'none'})`;
  const rows = report.probes.map((probe) => {
    const where = `${report.conversations > 1 ? `#${probe.conversation} ` : ''}line ${probe.line}`;
    const state = probe.category === 'error' ? (probe.resolvedBy ? `resolved (line ${probe.resolvedBy.line})` : 'open') : probe.kind;
    return `${where.padEnd(12)} ${probe.category.padEnd(10)} ${state.padEnd(10)} ${probe.text}`;
  });
  return [header, ...rows].join('\n');
}

export function parseProbesArgs(argv: readonly string[]): { file: string; json: boolean; format?: FormatId } {
  let json = false;
  let format: FormatId | undefined;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--json') json = true;
    else if (arg === '--format') {
      const value = argv[++i];
      if (value === undefined || !(FORMAT_IDS as readonly string[]).includes(value)) throw new Error(`--format must be one of ${FORMAT_IDS.join(', ')}; got ${value === undefined ? 'nothing' : `"${value}"`}`);
      format = value as FormatId;
    } else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else files.push(arg);
  }
  if (files.length !== 1) throw new Error(files.length === 0 ? 'probes needs a <file>' : 'probes takes one <file>');
  return { file: files[0]!, json, ...(format ? { format } : {}) };
}

export async function probesMain(argv: readonly string[], usage: string): Promise<void> {
  let args: ReturnType<typeof parseProbesArgs>;
  try {
    args = parseProbesArgs(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    const report = await runProbes(args.file, args.format);
    process.stdout.write(`${args.json ? JSON.stringify(report, null, 2) : formatProbes(report)}\n`);
  } catch (error) {
    const err = error as Error & { code?: string };
    process.stderr.write(`${err.code === 'ENOENT' ? `no such file: ${args.file}` : err.code === 'EISDIR' ? `${args.file} is a folder; probes reads one transcript file` : `${err.name}: ${err.message}`}\n`);
    process.exitCode = 1;
  }
}
