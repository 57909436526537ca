/**
 * What `cli mcp` reads before it starts (main.ts imports this at every start; the server
 * itself, stdio.ts, is loaded only by that command: the SDK costs ~35 MB of RSS).
 */

/** The environment variable the token may come from (a command line is visible to every user of the machine). */
export const MCP_TOKEN_VARIABLE = 'DELIVERY_API_TOKEN';

/** The Accept-Language a locale such as `ru_RU.UTF-8` means (none for C or an unset LANG). */
export function languageOfLocale(locale: string | undefined): string | undefined {
  const match = /^([a-z]{2})(?:[_-][A-Za-z]{2})?/.exec(locale ?? '');
  return match ? match[1] : undefined;
}
