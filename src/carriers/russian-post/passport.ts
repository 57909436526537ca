/**
 * Reads Russian Post's post-office passport unloading (otpravka API, GET
 * /1.0/unloading-passport/zip): a zip holding one text file `TYPEdd_MMMM_yyyy.txt` of JSON
 * `{"passportElements": [...], "unloadingDate": ..., "vsnapshot": ...}`. Some 40,000 offices
 * with their holidays make tens of megabytes of text, so the zip is inflated in slices and
 * each element is parsed and handed on as soon as it is read: the whole text is never held.
 * The zip itself is fflate's; the JSON is split here (elements are the objects of the top
 * object's array).
 */
import { Unzip, UnzipInflate } from 'fflate';

/** Compressed bytes pushed at a time: each push inflates to a bounded chunk of text. */
const SLICE_BYTES = 64 * 1024;

/**
 * Calls `visit` with each element of the unloading's `passportElements`, in order; answers
 * how many there were. Throws when the zip holds no text file or the text is not JSON.
 */
export function eachPassportElement(zip: Uint8Array, visit: (element: unknown) => void): number {
  const reader = new ArrayElementReader(visit);
  const decoder = new TextDecoder('utf-8');
  let found = false;
  let failure: Error | null = null;
  const unzip = new Unzip((file) => {
    if (found || !/\.(txt|json)$/i.test(file.name)) return;
    found = true;
    file.ondata = (error, chunk, final) => {
      if (error) failure = error;
      else if (!failure) {
        try {
          reader.push(decoder.decode(chunk, { stream: !final }));
        } catch (readError) {
          failure = readError instanceof Error ? readError : new Error(String(readError));
        }
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  for (let offset = 0; offset < zip.length && !failure; offset += SLICE_BYTES)
    unzip.push(zip.subarray(offset, offset + SLICE_BYTES), offset + SLICE_BYTES >= zip.length);
  if (failure) throw failure;
  if (!found) throw new Error('the zip holds no text file');
  return reader.count;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * Finds, in JSON text pushed piece by piece, every object that is an element of an array
 * held by the top object (`{"passportElements": [{...}, {...}]}`), and parses each alone.
 */
class ArrayElementReader {
  /** Open containers, outermost first. */
  private readonly open: number[] = [];
  private inString = false;
  private escaped = false;
  /** The text of the element being read, while inside one. */
  private parts: string[] | null = null;
  count = 0;

  constructor(private readonly visit: (element: unknown) => void) {}

  push(text: string): void {
    let start = this.parts ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) this.inString = false;
        continue;
      }
      if (code === QUOTE) {
        this.inString = true;
      } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
        if (
          code === OPEN_OBJECT &&
          this.open.length === 2 &&
          this.open[0] === OPEN_OBJECT &&
          this.open[1] === OPEN_ARRAY
        ) {
          this.parts = [];
          start = i;
        }
        this.open.push(code);
      } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
        this.open.pop();
        if (this.parts && this.open.length === 2) {
          this.parts.push(text.slice(start, i + 1));
          const element = JSON.parse(this.parts.join('')) as unknown;
          this.parts = null;
          start = -1;
          this.count += 1;
          this.visit(element);
        }
      }
    }
    if (this.parts) this.parts.push(text.slice(start));
  }
}
