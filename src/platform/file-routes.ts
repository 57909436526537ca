/**
 * `GET /files/:name`: the download of a stored file. The URL is the capability for
 * FILE_LINK_HOURS after the file is made; then (or from the start, when the account chose
 * token-only downloads) it needs a token of the file's account: Bearer, or the dashboard's cookie.
 * `GET` and `PUT /v2/files/settings`: that choice.
 */
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { bearerToken, requireOwner, type TokenResolver } from './auth.js';
import { notFound, unauthorized } from './errors.js';
import { isFileName, type FileStore } from './files.js';
import { inCallersLanguage, type App } from './http.js';
import { errorResponses, ErrorBody } from './schemas.js';
import { sessionTokenOf } from './session.js';

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
/** Whether the caller holds a token of `accountId` (401 without one; another account's is "not found"). */
async function checkFileOwner(request: FastifyRequest, tokens: TokenResolver, accountId: number): Promise<void> {
  const token = bearerToken(request) ?? sessionTokenOf(request);
  if (!token)
    throw unauthorized(
      'This file link needs a token now: send Authorization: Bearer <token> of its account, or open it signed in to the dashboard.',
    );
  const scope = await tokens.resolve(token);
  if (!scope) throw unauthorized();
  if (scope.accountId !== accountId) throw notFound('File');
}

const FileSettings = Type.Object(
  {
    tokenOnly: Type.Boolean({
      description:
        "true: the account's files download only with one of its tokens (Bearer or the dashboard's cookie); false: a file's link works without a token for FILE_LINK_HOURS (72 by default) after it is made, then with a token until it expires",
    }),
  },
  { additionalProperties: false },
);

export function fileRoutes(
  app: App,
  files: FileStore,
  tokens: TokenResolver,
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
          "The link returned by a document endpoint. It needs no token for FILE_LINK_HOURS after the file is made (72 by default), then a token of the file's account (Bearer, or the dashboard's session) until the file expires (FILE_TTL_DAYS, 30 days by default); an account that chose token-only downloads (PUT /v2/files/settings) needs one from the start.",
        security: [],
        params: Type.Object({ name: Type.String({ description: 'File name from the link' }) }),
        response: {
          200: Type.Unsafe<Readable>({ description: 'The file bytes (PDF, ZIP, xlsx), with its Content-Type' }),
          202: { ...ErrorBody, description: 'A report a job is still writing: ask again after Retry-After seconds' },
          401: { ...ErrorBody, description: "The link's public hours are over: send a token of the file's account" },
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
      if (file.publicUntil !== null && Date.now() >= Date.parse(file.publicUntil)) {
        try {
          await checkFileOwner(request, tokens, file.accountId);
        } catch (error) {
          file.body.destroy();
          throw error;
        }
      }
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

  app.get(
    '/v2/files/settings',
    {
      schema: {
        operation: { id: 'getFileSettings' },
        tags: ['Files'],
        summary: "Whether the account's files download only with its tokens",
        description: 'Extension. Account tokens and owners.',
        response: { 200: FileSettings, ...errorResponses(403) },
      },
    },
    async (request) => {
      requireOwner(request.scope, 'see the file settings');
      return { tokenOnly: await files.tokenOnly(request.scope.accountId) };
    },
  );

  app.put(
    '/v2/files/settings',
    {
      schema: {
        operation: { id: 'changeFileSettings' },
        tags: ['Files'],
        summary: "Choose token-only downloads for the account's files (labels carry buyers' names and phones)",
        description:
          'Extension. Account tokens and owners. Applies to files made from now on; a file made before keeps its link hours.',
        body: FileSettings,
        response: { 200: FileSettings, ...errorResponses(403) },
      },
    },
    async (request) => {
      requireOwner(request.scope, 'change the file settings');
      await files.setTokenOnly(request.scope.accountId, request.body.tokenOnly);
      return { tokenOnly: request.body.tokenOnly };
    },
  );
}
