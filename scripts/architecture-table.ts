/**
 * The section → module → file → test table of ARCHITECTURE.md, made from the published
 * OpenAPI document and the sources: for each operation its contract section (from its
 * description), the area and file that register it (the file whose route schema declares its
 * operationId), and the test files that call its path. `npm run docs:architecture` writes it
 * between the markers; test/architecture.test.ts fails when it is stale.
 *   npx tsx scripts/architecture-table.ts [--write]
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { publishedDocument } from './openapi-document.js';

const ROOT = path.resolve(import.meta.dirname, '..');
export const ARCHITECTURE_FILE = path.join(ROOT, 'ARCHITECTURE.md');
const START = '<!-- operations:start (npm run docs:architecture) -->';
const END = '<!-- operations:end -->';

interface Operation {
  operationId?: string;
  description?: string;
}

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'migrations' ? [] : filesUnder(full, keep);
    return keep(full) ? [full] : [];
  });
}

const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

/** A section number as a sortable key (4.12 after 4.2); extensions last. */
function sectionKey(section: string): number[] {
  return section === 'ext.' ? [99] : section.split('.').map(Number);
}

function compareSections(a: string, b: string): number {
  const [x, y] = [sectionKey(a), sectionKey(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/**
 * The source that registers an operation: the one whose route schema declares its id
 * (`{ id: 'listOrders', … }` in `schema.operation` or `schema.operationByMethod`); failing
 * that, for ids a loop passes on, the one that quotes it. A declaration comes first because
 * other code quotes the same words: CDEK's driver names its remote call 'cancelPickup'.
 */
function registeringSource<T extends { file: string; text: string }>(sources: T[], id: string): T | undefined {
  const quoted = `'${id}'`;
  const declaration = new RegExp(`(?<![\\w$.])id:\\s*${quoted.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')}`);
  for (const matches of [(text: string) => declaration.test(text), (text: string) => text.includes(quoted)]) {
    const found = sources.filter(({ text }) => matches(text));
    if (found.length > 1)
      throw new Error(`${id}: which of ${found.map(({ file }) => relative(file)).join(', ')} registers it?`);
    if (found.length === 1) return found[0];
  }
  return undefined;
}

const isParameter = (segment: string) => /^\{\w+\}$/.test(segment);
const escaped = (text: string) => text.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');

/**
 * A call of `route` as tests write it: a parameter is a literal or a template expression, but
 * not a word another path has in its place (a call of /v2/warehouses/shipment is not one of
 * /v2/warehouses/{id}: the router takes the fixed path first).
 */
function callPattern(route: string, routes: string[]): RegExp {
  const segments = route.split('/');
  const parts = segments.map((segment, index) => {
    if (!isParameter(segment)) return escaped(segment);
    const before = segments.slice(0, index).join('/');
    const fixed = new Set(
      routes
        .map((other) => other.split('/'))
        .filter((other) => other.length > index && other.slice(0, index).join('/') === before)
        .map((other) => other[index])
        .filter((word) => !isParameter(word))
        .map(escaped),
    );
    const notFixed = fixed.size ? `(?!(?:${[...fixed].join('|')})[/?'\`])` : '';
    return `${notFixed}(?:[^'\`/?]+|\\$\\{[^}]+\\})`;
  });
  return new RegExp(`['\`]${parts.join('/')}(?:[?'\`])`);
}

/** The table's rows, one per operation. */
export async function architectureTable(): Promise<string> {
  const document = (await publishedDocument()) as { paths: Record<string, Record<string, Operation>> };
  const sources = filesUnder(path.join(ROOT, 'src'), (file) => file.endsWith('.ts') && !file.endsWith('.test.ts')).map(
    (file) => ({ file, text: fs.readFileSync(file, 'utf8') }),
  );
  const tests = [
    ...filesUnder(path.join(ROOT, 'src'), (file) => file.endsWith('.test.ts')),
    ...filesUnder(path.join(ROOT, 'test'), (file) => file.endsWith('.test.ts')),
  ]
    .filter((file) => !file.endsWith('security-sweep.test.ts'))
    .map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
  const rows: Array<{ section: string; cells: string[] }> = [];
  const routes = Object.keys(document.paths);
  for (const [route, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const id = operation.operationId ?? '';
      const section = /Contract (\d+\.\d+)/.exec(operation.description ?? '')?.[1] ?? 'ext.';
      const source = registeringSource(sources, id);
      const file = source ? relative(source.file) : '—';
      const area =
        /^src\/modules\/([^/]+)\//.exec(file)?.[1] ??
        (file.startsWith('src/platform/') || file === 'src/app.ts' ? '(platform)' : '—');
      const pattern = callPattern(route, routes);
      const near = tests.filter(({ text }) => pattern.test(text));
      const named = near
        .sort((a, b) => Number(relative(b.file).includes(`/${area}/`)) - Number(relative(a.file).includes(`/${area}/`)))
        .slice(0, 2);
      rows.push({
        section,
        cells: [
          section,
          `\`${id}\``,
          `${method.toUpperCase()} ${route}`,
          area,
          file,
          named.length ? named.map(({ file: test }) => relative(test)).join(', ') : '—',
        ],
      });
    }
  }
  rows.sort((a, b) => compareSections(a.section, b.section) || a.cells[2].localeCompare(b.cells[2]));
  const header = '| section | operation | method and path | module | file | tests |\n|---|---|---|---|---|---|';
  return `${header}\n${rows.map(({ cells }) => `| ${cells.join(' | ')} |`).join('\n')}`;
}

/** ARCHITECTURE.md with the table replaced by `table`. */
export function withTable(markdown: string, table: string): string {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) throw new Error(`ARCHITECTURE.md lacks the markers ${START} … ${END}`);
  return `${markdown.slice(0, start + START.length)}\n${table}\n${markdown.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const table = await architectureTable();
  if (process.argv.includes('--write'))
    fs.writeFileSync(ARCHITECTURE_FILE, withTable(fs.readFileSync(ARCHITECTURE_FILE, 'utf8'), table));
  else process.stdout.write(`${table}\n`);
}
