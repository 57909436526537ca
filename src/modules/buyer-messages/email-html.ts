/**
 * A buyer's e-mail as HTML: the shop's logo and colour, the message's text (escaped, its links
 * made links), a button to the tracking page and the unsubscribe link at the foot. Tables and
 * inline styles: what mail programs still read. Pure.
 */
import type { Language } from './moments.js';

export interface EmailLook {
  brand: string;
  logoUrl: string | null;
  color: string;
  language: Language;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A line of the text, escaped, with its http(s) links as anchors. */
function lineHtml(line: string, color: string): string {
  return escapeHtml(line).replace(
    /https?:\/\/[^\s<>"]+/g,
    (url) => `<a href="${url}" style="color:${color}">${url}</a>`,
  );
}

export function emailHtml(
  look: EmailLook,
  subject: string,
  text: string,
  links: { tracking: string; unsubscribe: string },
): string {
  const color = /^#[0-9a-fA-F]{6}$/.test(look.color) ? look.color : '#3b5bdb';
  const paragraphs = text
    .split(/\n{2,}/)
    .map(
      (block) =>
        `<p style="margin:0 0 16px">${block
          .split('\n')
          .map((line) => lineHtml(line, color))
          .join('<br>')}</p>`,
    )
    .join('');
  const words =
    look.language === 'ru'
      ? { track: 'Отследить заказ', unsubscribe: 'Отписаться от этих писем' }
      : { track: 'Track your order', unsubscribe: 'Unsubscribe from these e-mails' };
  const head = look.logoUrl
    ? `<img src="${escapeHtml(look.logoUrl)}" alt="${escapeHtml(look.brand)}" style="max-height:48px;max-width:200px">`
    : `<span style="font-size:20px;font-weight:bold;color:${color}">${escapeHtml(look.brand)}</span>`;
  const button = links.tracking
    ? `<p style="margin:24px 0"><a href="${escapeHtml(links.tracking)}" style="background:${color};color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${words.track}</a></p>`
    : '';
  return `<!doctype html><html lang="${look.language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="margin:0;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2328"><table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px;border-top:4px solid ${color}"><tr><td style="padding:24px">${head}</td></tr><tr><td style="padding:0 24px 8px;font-size:15px;line-height:1.5">${paragraphs}${button}</td></tr><tr><td style="padding:16px 24px;font-size:12px;color:#57606a;border-top:1px solid #eaeef2"><a href="${escapeHtml(links.unsubscribe)}" style="color:#57606a">${words.unsubscribe}</a></td></tr></table></td></tr></table></body></html>`;
}
