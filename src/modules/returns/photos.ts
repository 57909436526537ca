/**
 * The buyer's photos of a return: each must be a real picture (image-size reads the file's own
 * header, never the name or the Content-Type the browser claims), of a kind phones take, within
 * the bounds below. Pure: bytes in, the kind and sides out, or the reason it is refused.
 */
import { imageSize } from 'image-size';

/** At most this many photos a return, each at most this large: a phone's JPEG is 2-5 MB. */
export const MAX_PHOTOS = 5;
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
/** A picture's side: a decompression bomb declares huge sides in a small file. */
const MAX_SIDE = 12_000;

const KINDS: Record<string, { extension: string; contentType: string }> = {
  jpg: { extension: 'jpg', contentType: 'image/jpeg' },
  png: { extension: 'png', contentType: 'image/png' },
  webp: { extension: 'webp', contentType: 'image/webp' },
  heif: { extension: 'heic', contentType: 'image/heic' },
};

export type PhotoCheck =
  | { ok: true; extension: string; contentType: string; width: number; height: number }
  | { ok: false; reason: string };

export function checkPhoto(bytes: Uint8Array): PhotoCheck {
  if (bytes.length === 0) return { ok: false, reason: 'is empty' };
  if (bytes.length > MAX_PHOTO_BYTES)
    return { ok: false, reason: `is larger than ${MAX_PHOTO_BYTES / 1024 / 1024} MB` };
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    return { ok: false, reason: 'is not a picture (JPEG, PNG, WebP or HEIC)' };
  }
  const kind = size.type ? KINDS[size.type] : undefined;
  if (!kind) return { ok: false, reason: 'is not a picture (JPEG, PNG, WebP or HEIC)' };
  if (!size.width || !size.height || size.width > MAX_SIDE || size.height > MAX_SIDE)
    return { ok: false, reason: `must be a picture of at most ${MAX_SIDE} pixels a side` };
  return { ok: true, ...kind, width: size.width, height: size.height };
}
