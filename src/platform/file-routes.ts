/** `GET /files/:name`: the public download of a stored file. No token: the URL is the capability. */
import type { Readable } from 'node:stream';
import Type from 'typebox';
import { notFound } from './errors.js';
import { isFileName, type FileStore } from './files.js';
import { inCallersLanguage, type App } from './http.js';
import { ErrorBody } from './schemas.js';

/** `inline; filename="..."` with an ASCII fallback and the UTF-8 name for browsers that read it. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return ascii === fileName
    ? `inline; filename="${ascii}"`
    : `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Seconds a client is asked to wait before asking again for a file still being written. */
const RETRY_AFTER_SECONDS = 5;

/**
 * `isPending`: whether a name was handed out for a file a job has yet to write (a large
 * report); such a URL answers 202 with Retry-After instead of 404 until the file is there.
 */
export function fileRoutes(
  app: App,
  files: FileStore,
  isPending: (name: string) => Promise<boolean> = async () => false,
): void {
  app.get(
    '/files/:name',
    {
      config: { public: true },
      schema: {
        operation: { id: 'downloadFile' },
        tags: ['Files'],
        summary: 'Download a generated file (labels, acts, reports)',
        description:
          'The link returned by a document endpoint. It needs no token and works until the file expires (FILE_TTL_DAYS, 30 days by default).',
        security: [],
        params: Type.Object({ name: Type.String({ description: 'File name from the link' }) }),
        response: {
          200: Type.Unsafe<Readable>({ description: 'The file bytes (PDF, ZIP, xlsx), with its Content-Type' }),
          202: { ...ErrorBody, description: 'A report a job is still writing: ask again after Retry-After seconds' },
          404: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const file = await files.open(request.params.name);
      if (!file && isFileName(request.params.name) && (await isPending(request.params.name))) {
        return reply
          .code(202)
          .header('retry-after', String(RETRY_AFTER_SECONDS))
          .send(
            inCallersLanguage(request, {
              code: 'file_not_ready',
              message: `The file is still being written; ask again in ${RETRY_AFTER_SECONDS} seconds.`,
              errors: [],
              logId: request.id,
            }),
          );
      }
      if (!file) throw notFound('File');
      return (
        reply
          .header('content-type', file.contentType)
          .header('content-length', file.size)
          .header('content-disposition', contentDisposition(file.downloadName))
          .header('cache-control', 'private, max-age=3600')
          .header('x-content-type-options', 'nosniff')
          // The link is a credential: do not pass it on to sites linked from a document.
          .header('referrer-policy', 'no-referrer')
          .send(file.body)
      );
    },
  );
}
