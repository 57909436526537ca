/**
 * Reads one of the register's XML files as a stream of rows (their attributes), never the whole
 * file in memory: bytes are decoded and handed to saxes chunk by chunk, and the rows of a chunk
 * come out together so that the caller's writes pace the reading. A file that is not the register's
 * (not UTF-8, not XML, another root element, a row without a required attribute, cut short) stops
 * the reading with a `GarFileError` naming the file and the line.
 */
import { SaxesParser } from 'saxes';
import type { GarFileFormat } from './gar-format.js';

export type GarRow = Readonly<Record<string, string>>;

/** What is wrong with a file of the register, in Russian and English, and where. */
export class GarFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reasonRu: string,
    readonly reasonEn: string,
    consequence: { ru: string; en: string } = {
      ru: 'ничего из этого региона не сохранено',
      en: 'nothing of this region was kept',
    },
  ) {
    super(
      `Файл ${file}, строка ${line}: ${reasonRu}; ${consequence.ru}. / ` +
        `File ${file}, line ${line}: ${reasonEn}; ${consequence.en}.`,
    );
    this.name = 'GarFileError';
  }
}

/** Rows handed out at a time at most (a chunk of 64 kB holds a few hundred). */
const MAX_BATCH = 2000;

export async function* readGarRows(
  input: AsyncIterable<Uint8Array | string>,
  file: string,
  format: GarFileFormat,
): AsyncGenerator<GarRow[]> {
  const parser = new SaxesParser({ position: true });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let rows: GarRow[] = [];
  let depth = 0;
  let problem: GarFileError | null = null;
  const fail = (reasonRu: string, reasonEn: string): void => {
    problem ??= new GarFileError(file, parser.line, reasonRu, reasonEn);
  };
  parser.on('error', (error) =>
    fail(`повреждённый XML (${plainSaxesMessage(error.message)})`, `broken XML (${plainSaxesMessage(error.message)})`),
  );
  parser.on('opentag', (tag) => {
    depth += 1;
    if (problem) return;
    if (depth === 1) {
      if (tag.name !== format.root)
        fail(
          `корневой элемент ${tag.name}, а файл ${format.prefix} начинается с ${format.root}`,
          `the root element is ${tag.name}, where a ${format.prefix} file has ${format.root}`,
        );
      return;
    }
    if (depth > 2 || tag.name !== format.row) {
      fail(`неожиданный элемент ${tag.name}`, `unexpected element ${tag.name}`);
      return;
    }
    const attributes = tag.attributes as Record<string, string>;
    for (const name of format.required) {
      if (attributes[name] === undefined) {
        fail(`у элемента ${tag.name} нет атрибута ${name}`, `element ${tag.name} lacks attribute ${name}`);
        return;
      }
    }
    for (const name of format.numeric ?? []) {
      if (!/^\d{1,15}$/.test(attributes[name])) {
        fail(
          `атрибут ${name} элемента ${tag.name} не число: «${attributes[name].slice(0, 40)}»`,
          `attribute ${name} of element ${tag.name} is not a number: "${attributes[name].slice(0, 40)}"`,
        );
        return;
      }
    }
    rows.push(attributes);
  });
  parser.on('closetag', () => {
    depth -= 1;
  });

  const write = (text: string): void => {
    // saxes reports a mistake through the handler above; it throws only where it cannot go on
    try {
      parser.write(text);
    } catch (error) {
      fail(`повреждённый XML (${(error as Error).message})`, `broken XML (${(error as Error).message})`);
    }
  };
  for await (const chunk of input) {
    let text: string;
    try {
      text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    } catch {
      fail('не текст в UTF-8', 'not UTF-8 text');
      throw problem;
    }
    write(text);
    if (problem) throw problem;
    while (rows.length > MAX_BATCH) yield rows.splice(0, MAX_BATCH);
    if (rows.length > 0) {
      const batch = rows;
      rows = [];
      yield batch;
    }
  }
  try {
    write(decoder.decode());
  } catch {
    fail('не текст в UTF-8', 'not UTF-8 text');
  }
  if (!problem) {
    try {
      parser.close();
    } catch (error) {
      fail(`повреждённый XML (${(error as Error).message})`, `broken XML (${(error as Error).message})`);
    }
  }
  // a file cut short ends inside an element: saxes says so at close
  if (problem) throw problem;
  if (rows.length > 0) yield rows;
}

/** saxes prefixes its message with the position, which the sentence already gives. */
function plainSaxesMessage(message: string): string {
  return message.replace(/^(?:[^:]*:)?\d+:\d+:\s*/, '');
}
