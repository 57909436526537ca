/**
 * Writes the document of /openapi.json to a file (or stdout); CI lints it with Redocly.
 *   npx tsx scripts/dump-openapi.ts [out.json]
 */
import fs from 'node:fs';
import { publishedDocument } from './openapi-document.js';

const out = process.argv[2];
const text = `${JSON.stringify(await publishedDocument(process.env.PUBLIC_URL), null, 2)}\n`;
if (out) fs.writeFileSync(out, text);
else process.stdout.write(text);
