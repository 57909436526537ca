/** The audit trail (extension): owners read, filter and export it, and set how long it is kept. */
import { Readable } from 'node:stream';
import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, sendPage, PAGING_HEADERS } from '../../platform/paging.js';
import { errorResponses } from '../../platform/schemas.js';
import { AuditEntryView, AuditExportQuery, AuditListQuery, AuditSettings } from './schemas.js';
import type { AuditEntryView as EntryView, AuditService } from './service.js';

const tags = ['Audit trail (extension)'];
const OWNERS =
  'Owners and the account token (and a scoped key with the settings scope); 403 for managers and shop keys.';

const CSV_COLUMNS = ['id', 'at', 'actor', 'operation', 'records', 'changes', 'ip', 'userAgent', 'seq', 'hash'] as const;

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  // a cell a spreadsheet would run as a formula is quoted as text
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function csvLine(entry: EntryView): string {
  const actor = entry.actor.id === null ? entry.actor.kind : `${entry.actor.kind}:${entry.actor.id}`;
  const values: Record<(typeof CSV_COLUMNS)[number], unknown> = { ...entry, actor };
  return `${CSV_COLUMNS.map((column) => csvCell(values[column])).join(',')}\n`;
}

async function* exportLines(entries: AsyncGenerator<EntryView>, format: 'csv' | 'jsonl'): AsyncGenerator<string> {
  if (format === 'csv') yield `${CSV_COLUMNS.join(',')}\n`;
  for await (const entry of entries) yield format === 'csv' ? csvLine(entry) : `${JSON.stringify(entry)}\n`;
}

export function auditRoutes(app: App, services: { audit: AuditService }): void {
  app.get(
    '/v2/audit',
    {
      schema: {
        operation: { id: 'listAuditEntries' },
        tags,
        summary: 'The audit trail: who changed what, when and from where, newest first',
        description: `${OWNERS} Filters: actor, operation, record, period. Every change through the API, the dashboard, the CLI, an operator or a job is here, written in the change's own transaction; settings changes carry the values before and after.`,
        querystring: AuditListQuery,
        response: { 200: { ...Type.Array(AuditEntryView), headers: PAGING_HEADERS }, ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await services.audit.list(request.scope, request.query, at), at);
    },
  );

  app.get(
    '/v2/audit/export',
    {
      schema: {
        operation: { id: 'exportAuditEntries' },
        tags,
        summary: 'Export the audit trail (the same filters), oldest first, streamed as JSON lines or CSV',
        description: OWNERS,
        querystring: AuditExportQuery,
        produces: ['application/x-ndjson', 'text/csv'],
        response: {
          200: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'audit.jsonl or audit.csv' }),
          ...errorResponses(403),
        },
      },
    },
    async (request, reply) => {
      const format = request.query.format ?? 'jsonl';
      const entries = services.audit.entries(request.scope, request.query);
      // the first page is read before answering, so a refusal is still a refusal and not a broken stream
      const first = await entries.next();
      async function* all(): AsyncGenerator<EntryView> {
        if (!first.done) yield first.value;
        yield* entries;
      }
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit.${format}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(exportLines(all(), format)));
    },
  );

  app.get(
    '/v2/audit/settings',
    {
      schema: {
        operation: { id: 'getAuditSettings' },
        tags,
        summary: 'How long the audit trail is kept',
        description: OWNERS,
        response: { 200: AuditSettings, ...errorResponses(403) },
      },
    },
    async (request) => services.audit.retention(request.scope),
  );

  app.put(
    '/v2/audit/settings',
    {
      schema: {
        operation: { id: 'setAuditSettings' },
        tags,
        summary: 'Set how long the audit trail is kept (days; null: kept)',
        description: `${OWNERS} An hourly job deletes older entries from the start of the chain; \`npm run cli -- audit verify\` still verifies it from the first kept entry.`,
        body: AuditSettings,
        response: { 200: AuditSettings, ...errorResponses(403) },
      },
    },
    async (request) => services.audit.setRetention(request.scope, request.body.retentionDays),
  );
}
