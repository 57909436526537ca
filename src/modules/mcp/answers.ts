/**
 * An API answer as a tool result a model can read: JSON text bounded in size (a big city's
 * pickup points are hundreds of kB, more than a model's context should take), refusals as
 * tool errors with the API's own code, message and field errors, and the few sentences of our
 * own in the caller's language (Accept-Language, as the API's refusals).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Language } from '../../platform/error-language.js';
import type { OperationAnswer } from './operation-call.js';

/** Characters of JSON one tool result carries at most (about 15,000 tokens). */
export const MAX_RESULT_CHARS = 60_000;

type Sentence = Record<Language, string>;

export const SENTENCES = {
  done: { en: 'Done.', ru: 'Готово.' },
  shortened: (kept: number): Sentence => ({
    en: `The answer was too long: every list in it was cut to its first ${kept} items. Narrow the request (filters, page and perPage) to see the rest.`,
    ru: `Ответ слишком длинный: каждый список в нём сокращён до первых ${kept} элементов. Сузьте запрос (фильтры, page и perPage), чтобы увидеть остальное.`,
  }),
  tooLong: {
    en: 'The answer is too long to return even shortened. Narrow the request (filters, page and perPage).',
    ru: 'Ответ слишком длинный даже в сокращённом виде. Сузьте запрос (фильтры, page и perPage).',
  },
  fileNotReady: (seconds: string): Sentence => ({
    en: `The file is still being written: call again in ${seconds} s.`,
    ru: `Файл ещё готовится: повторите вызов через ${seconds} с.`,
  }),
  fileLink: (link: string): Sentence => ({
    en: `The file: ${link} (the link works without a token for a limited time).`,
    ru: `Файл: ${link} (ссылка работает без токена ограниченное время).`,
  }),
  fileNotEmbedded: (reason: Sentence): Sentence => ({
    en: `It is not embedded: ${reason.en}`,
    ru: `Файл не вложен в ответ: ${reason.ru}`,
  }),
  notPdf: {
    en: 'it is not a PDF (give a type for one PDF).',
    ru: 'это не PDF (укажите type, чтобы получить один PDF).',
  },
  tooLarge: (limit: number): Sentence => ({
    en: `it is larger than ${limit / 1024 / 1024} MB; open the link.`,
    ru: `он больше ${limit / 1024 / 1024} МБ; откройте ссылку.`,
  }),
  notReadable: { en: 'it could not be read; open the link.', ru: 'его не удалось прочитать; откройте ссылку.' },
  notAllowed: (tool: string, scopes: readonly string[]): Sentence => ({
    en: `This key may not call ${tool}${scopes.length > 0 ? ` (it needs the scope ${scopes.join(' or ')})` : ''}: ask the account's owner for a key that may.`,
    ru: `Этому ключу нельзя вызывать ${tool}${scopes.length > 0 ? ` (нужно право ${scopes.join(' или ')})` : ''}: попросите владельца аккаунта о ключе, которому можно.`,
  }),
} as const;

/** Cuts every array longer than `kept` to its first `kept` items. */
function shortenLists(value: unknown, kept: number): unknown {
  if (Array.isArray(value)) return value.slice(0, kept).map((item) => shortenLists(item, kept));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shortenLists(item, kept)]));
  return value;
}

/** The JSON text of an answer within `limit` characters, its lists shortened when needed, and a note saying so. */
export function boundedJson(
  value: unknown,
  language: Language,
  limit = MAX_RESULT_CHARS,
): { text: string; note: string | null } {
  const whole = JSON.stringify(value);
  if (whole.length <= limit) return { text: whole, note: null };
  for (let kept = 50; kept >= 1; kept = Math.floor(kept / 2)) {
    const text = JSON.stringify(shortenLists(value, kept));
    if (text.length <= limit) return { text, note: SENTENCES.shortened(kept)[language] };
  }
  return { text: '', note: SENTENCES.tooLong[language] };
}

export function textResult(texts: string[], isError = false): CallToolResult {
  return {
    content: texts.filter((text) => text !== '').map((text) => ({ type: 'text' as const, text })),
    ...(isError ? { isError: true } : {}),
  };
}

interface ErrorBody {
  code?: string;
  message?: string;
  errors?: { field?: string; id?: number | string; message: string }[];
  logId?: string;
}

/** The API's refusal as a tool error: `HTTP 404 not_found: Order 7 was not found.` and its field errors. */
export function refusalResult(answer: OperationAnswer): CallToolResult {
  const body = (answer.json ?? {}) as ErrorBody;
  const lines = [`HTTP ${answer.statusCode} ${body.code ?? 'error'}: ${body.message ?? ''}`.trim()];
  for (const item of (body.errors ?? []).slice(0, 50))
    lines.push(`- ${item.field ?? (item.id !== undefined ? `id ${item.id}` : '')}: ${item.message}`);
  if (body.logId) lines.push(`logId: ${body.logId}`);
  return textResult([lines.join('\n')], true);
}

/** A JSON answer of the API as a tool result (204 and other empty answers: "Done."). */
export function answerResult(answer: OperationAnswer, language: Language): CallToolResult {
  if (answer.statusCode >= 400) return refusalResult(answer);
  if (answer.statusCode === 202) {
    const seconds = String(answer.headers['retry-after'] ?? '5');
    return textResult([SENTENCES.fileNotReady(seconds)[language]]);
  }
  if (answer.json === null) return textResult([SENTENCES.done[language]]);
  const bounded = boundedJson(answer.json, language);
  return textResult([bounded.text, bounded.note ?? '']);
}
