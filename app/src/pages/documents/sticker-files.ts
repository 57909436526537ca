/** What each file of a sticker set holds, as the documents page names it. */
import type { Schemas } from '../../api';
import type { TextKey } from '../../i18n';

export type StickerSet = Schemas['StickerSet'];

/** A format's file: the service's sticker types are 1 A4 sheets of four, 2 thermal 100×150 mm, 3 thermal 75×120 mm. */
export function stickerTypeKey(type: number): TextKey {
  return type === 2 ? 'stickerType2' : type === 3 ? 'stickerType3' : 'stickerType1';
}

/**
 * What the set's own file (the one answered when the set was formed) holds, or null when it is
 * one of the format files listed already: the whole set as one ZIP, a company's own sticker, or
 * the ZPL or PNG of a thermal printer.
 */
export function setFileKey(set: Pick<StickerSet, 'deliveryCompanySticker' | 'stickers' | 'format'>): TextKey | null {
  const file = set.deliveryCompanySticker;
  if (!file || set.stickers.some((sticker) => sticker.file === file)) return null;
  if (set.format === 'png') return 'stickerSetPng';
  const extension = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(file)?.[1]?.toLowerCase();
  if (extension === 'zip') return 'stickerSetZip';
  if (set.format === 'zpl') return 'stickerSetZpl';
  return 'stickerCompanyLabel';
}
