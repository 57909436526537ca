/** The documents page's names of a sticker set's files. */
import { describe, expect, it } from 'vitest';
import { setFileKey, stickerTypeKey } from './sticker-files';

describe('sticker files', () => {
  const set = { format: 'pdf' as const, stickers: [{ type: 1, file: '/files/a.pdf' }] };

  it('names each format by its size, and the set’s own file by what it holds', () => {
    expect([1, 2, 3].map(stickerTypeKey)).toEqual(['stickerType1', 'stickerType2', 'stickerType3']);
    expect(setFileKey({ ...set, deliveryCompanySticker: '/files/a.pdf' })).toBeNull();
    expect(setFileKey({ ...set, deliveryCompanySticker: '/files/b.zip' })).toBe('stickerSetZip');
    expect(setFileKey({ ...set, deliveryCompanySticker: '/files/label.pdf' })).toBe('stickerCompanyLabel');
    expect(setFileKey({ format: 'zpl', stickers: [], deliveryCompanySticker: '/files/c.zpl' })).toBe('stickerSetZpl');
    expect(setFileKey({ format: 'png', stickers: [], deliveryCompanySticker: '/files/d.zip' })).toBe('stickerSetPng');
  });
});
