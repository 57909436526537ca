/** `GET /files/:name`: the public download of a stored file. No token: the URL is the capability. */
import type { Readable } from 'node:stream';
import Type from 'typebox';
import { notFound } from './errors.js';
import type { FileStore } from './files.js';
import type { App } from './http.js';
import { ErrorBody } from './schemas.js';

/** `inline; filename="..."` with an ASCII fallback and the UTF-8 name for browsers that read it. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return ascii === fileName ? `inline; filename="${ascii}"` : `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function fileRoutes(app: App, files: FileStore): void {
  app.get(
    '/files/:name',
    {
      config: { public: true },
      schema: {
        tags: ['Files'],
        summary: 'Download a generated file (labels, acts, reports)',
        description: 'The link returned by a document endpoint. It needs no token and works until the file expires (FILE_TTL_DAYS, 30 days by default).',
        security: [],
        params: Type.Object({ name: Type.String({ description: 'File name from the link' }) }),
        response: { 200: Type.Unsafe<Readable>({ description: 'The file bytes (PDF, ZIP, xlsx), with its Content-Type' }), 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const file = await files.open(request.params.name);
      if (!file) throw notFound('File');
      return reply
        .header('content-type', file.contentType)
        .header('content-length', file.size)
        .header('content-disposition', contentDisposition(file.downloadName))
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        // The link is a credential: do not pass it on to sites linked from a document.
        .header('referrer-policy', 'no-referrer')
        .send(file.body);
    },
  );
}
