/**
 * The built widget's files under /widget/v1/: widget.js (the latest, cached briefly), the
 * content-hashed files (immutable: a page pins one with its SRI hash), and manifest.json naming
 * them. Any page may load them (CORS *): they hold no data, and the map file is an ES module,
 * which a browser fetches in CORS mode. A script goes as Brotli or gzip to a browser that takes
 * it (the `.br` and `.gz` forms the build writes beside it, scripts/precompress.mjs; the
 * widget's core is 22 kB, 7.6 kB gzipped); the SRI hash a page pins is of the script's own
 * bytes, which the browser checks after decoding, so it holds for every form.
 */
import fs from 'node:fs';
import path from 'node:path';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { AppError } from '../../platform/errors.js';
import type { App } from '../../platform/http.js';
import { ErrorBody } from '../../platform/schemas.js';

export interface WidgetManifest {
  widget: { file: string; integrity: string; bytes: number; gzipBytes: number };
  map: { file: string; integrity: string; bytes: number; gzipBytes: number };
  compat: { file: string; integrity: string; bytes: number; gzipBytes: number };
}

const HASHED_FILE = /^(widget|widget-map|saferoute-compat)\.[0-9a-f]{12}\.js$/;
const Script = Type.Unsafe<string>({ description: 'JavaScript (text/javascript)' });
const ManifestSchema = Type.Object(
  {
    widget: Type.Object({
      file: Type.String(),
      integrity: Type.String({ description: 'SRI hash for the `integrity` attribute of the script tag' }),
      bytes: Type.Integer(),
      gzipBytes: Type.Integer(),
    }),
    map: Type.Object({
      file: Type.String(),
      integrity: Type.String(),
      bytes: Type.Integer(),
      gzipBytes: Type.Integer(),
    }),
    compat: Type.Object({
      file: Type.String(),
      integrity: Type.String(),
      bytes: Type.Integer(),
      gzipBytes: Type.Integer(),
    }),
  },
  { description: 'WidgetManifest' },
);

/** A script's bytes and the compressed forms the build wrote beside it. */
interface ScriptForms {
  plain: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
}
/** Brotli first: the smaller of the two (the widget's core 6.7 kB against 7.6 kB gzipped). */
const ENCODINGS = ['br', 'gzip'] as const;
const EXTENSION = { br: '.br', gzip: '.gz' } as const;

function readForms(file: string): ScriptForms {
  const read = (name: string) => (fs.existsSync(name) ? fs.readFileSync(name) : null);
  return { plain: fs.readFileSync(file), br: read(`${file}${EXTENSION.br}`), gzip: read(`${file}${EXTENSION.gzip}`) };
}

/** The script in the form this request's Accept-Encoding takes best (q-values honoured; none: as it is). */
function sendScript(request: FastifyRequest, reply: FastifyReply, forms: ScriptForms, cacheControl: string) {
  reply
    .type('text/javascript; charset=utf-8')
    .header('cache-control', cacheControl)
    .header('access-control-allow-origin', '*')
    .header('vary', 'Accept-Encoding');
  // content codings are case-insensitive (RFC 9110), as @fastify/static reads them for /app/assets/
  const accepted = request.headers['accept-encoding']?.toLowerCase();
  const offered = ENCODINGS.filter((encoding) => forms[encoding] !== null);
  const encoding = accepted && offered.length > 0 ? (negotiate(accepted, offered) as (typeof ENCODINGS)[number]) : null;
  const bytes = encoding ? forms[encoding] : null;
  if (encoding && bytes) return reply.header('content-encoding', encoding).send(bytes as unknown as string);
  return reply.send(forms.plain as unknown as string);
}

export function widgetAssetRoutes(app: App, directory: string): void {
  const dir = path.join(directory, 'v1');
  // read once: the files change only with a new build, which means a new start
  const files = new Map<string, ScriptForms>();
  let manifest: WidgetManifest | null = null;
  if (fs.existsSync(path.join(dir, 'manifest.json'))) {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as WidgetManifest;
    for (const name of fs.readdirSync(dir)) if (name.endsWith('.js')) files.set(name, readForms(path.join(dir, name)));
  }
  const notBuilt = () =>
    new AppError(404, 'widget_not_built', 'The checkout widget is not built here: run npm run build.');
  const common = { tags: ['Checkout widget'], security: [] };

  for (const [name, summary, id] of [
    ['widget.js', 'The checkout widget script, latest build (cached 5 minutes)', 'getWidgetScript'],
    [
      'saferoute-compat.js',
      "The widget era's SafeRouteCartWidget for unchanged shop plugins, latest build (?key=pk_… names the shop)",
      'getWidgetEraCompatibilityScript',
    ],
  ] as const) {
    app.get(
      `/widget/v1/${name}`,
      {
        config: { public: true },
        schema: {
          operation: { id },
          ...common,
          summary,
          produces: ['text/javascript'],
          response: { 200: Script, 404: ErrorBody },
        },
      },
      async (request, reply) => {
        const forms = files.get(name);
        if (!forms) throw notBuilt();
        return sendScript(request, reply, forms, 'public, max-age=300');
      },
    );
  }

  app.get(
    '/widget/v1/manifest.json',
    {
      config: { public: true },
      schema: {
        operation: { id: 'getWidgetManifest' },
        ...common,
        summary: 'The versioned widget files and their SRI hashes',
        response: { 200: ManifestSchema, 404: ErrorBody },
      },
    },
    async (_request, reply) => {
      if (!manifest) throw notBuilt();
      return reply.header('cache-control', 'no-cache').header('access-control-allow-origin', '*').send(manifest);
    },
  );

  app.get(
    '/widget/v1/:file',
    {
      config: { public: true },
      schema: {
        operation: { id: 'getVersionedWidgetFile' },
        ...common,
        summary:
          'A versioned widget file (`widget.<hash>.js`, `widget-map.<hash>.js`, `saferoute-compat.<hash>.js`): immutable',
        params: Type.Object({ file: Type.String({ maxLength: 64 }) }),
        produces: ['text/javascript'],
        response: { 200: Script, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const forms = HASHED_FILE.test(request.params.file) ? files.get(request.params.file) : undefined;
      if (!forms)
        throw new AppError(404, 'not_found', `No widget file ${request.params.file}: see /widget/v1/manifest.json.`);
      return sendScript(request, reply, forms, 'public, max-age=31536000, immutable');
    },
  );
}
