/** What the server tells the page at load (a meta tag: no inline script is allowed): the map's tiles. */
export interface PageConfig {
  mapTiles: string | null;
  mapAttribution: string;
  /** SIGNUP: `open` offers the sign-up page on the sign-in page. */
  signup?: 'off' | 'invite' | 'open';
}

export function pageConfig(): PageConfig {
  const raw = document.querySelector<HTMLMetaElement>('meta[name="app-config"]')?.content;
  try {
    if (raw && raw !== '__APP_CONFIG__') return JSON.parse(raw) as PageConfig;
  } catch {
    // a page served without the server's filling (vite dev): no tiles
  }
  return { mapTiles: null, mapAttribution: '' };
}
