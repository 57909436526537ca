/**
 * Pages whose link is the credential (the tracking page, the returns page): sent so that no
 * shared cache keeps a copy, no other site hears the link as a referrer, no search engine lists
 * it, and the page runs only what its own content security policy allows.
 */
import type { FastifyReply } from 'fastify';

export function sendLinkPage(
  reply: FastifyReply,
  status: number,
  html: string,
  contentSecurityPolicy: string,
): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex, nofollow')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', contentSecurityPolicy)
    .send(html);
}
