/** How the widget's styles reach its shadow root (the widget's own file and the map's alike). */

/**
 * Puts a stylesheet into the shadow root. A constructed stylesheet (`adoptedStyleSheets`) is
 * not an inline style, so a page with a strict Content-Security-Policy (no 'unsafe-inline' in
 * style-src, the dashboard's own) shows the widget styled; a browser without constructable
 * stylesheets gets a <style> element as before, with the page's nonce when it passed one.
 */
export function adoptStyles(root: ShadowRoot, css: string, nonce?: string): void {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    try {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
      return;
    } catch {
      // a browser that has the API but refuses it: the element below
    }
  }
  const style = document.createElement('style');
  if (nonce) style.nonce = nonce;
  style.textContent = css;
  root.append(style);
}
