/** `npm run cli -- addresses import|import-osm|status`: the federal address register's import, at the server. */
import { parseArgs } from 'node:util';
import { AppError } from '../../platform/errors.js';
import { CommandUsageError, stringOption, type AreaCommand } from '../../platform/module.js';
import { GarFileError } from './gar-reader.js';
import type { AddressImportService } from './import-service.js';

const USAGE =
  'usage: addresses import <gar_xml.zip or folder> [--region N] [--delta] | addresses import-osm <file.osm> | addresses status';

export const addressesCommand: AreaCommand<{ addressImports: AddressImportService }> = {
  usage: [
    'addresses import <gar_xml.zip|folder> [--region N] [--delta]   the federal address register (ГАР); a stopped run resumes',
    "addresses import-osm <file.osm>             houses' coordinates from an OpenStreetMap extract (addr:* nodes and buildings)",
    'addresses status                            what the address tables hold and the last imports',
  ],
  async run(args, open) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { region: { type: 'string' }, delta: { type: 'boolean', default: false } },
    });
    const [action, location] = positionals;
    const progress = (line: string): void => void process.stdout.write(`${line}\n`);
    if (action === 'import') {
      if (!location) throw new CommandUsageError(USAGE);
      const regionText = stringOption(values, 'region');
      const region = regionText === undefined ? undefined : Number(regionText);
      if (region !== undefined && (!Number.isInteger(region) || region < 1 || region > 99))
        throw new CommandUsageError('--region takes a region code, 1 to 99 (77 for Moscow)');
      const services = await open();
      try {
        const result = await services.addressImports.importRegister(location, {
          region,
          delta: values.delta === true,
          onProgress: progress,
        });
        const regions = Object.values(result.regions);
        const objects = regions.reduce((sum, counts) => sum + counts.objects + counts.houses + counts.flats, 0);
        return (
          `Import ${result.importId} done${result.resumed ? ' (resumed)' : ''}: ${regions.length} region(s), ${objects} objects, houses and flats; ` +
          `${result.rowsRead} rows read in ${result.seconds.toFixed(1)} s (${Math.round(result.rowsRead / Math.max(result.seconds, 0.001))} rows/s).\n`
        );
      } catch (error) {
        // the sentence names the file and the line, in both languages; main.ts prints it alone
        if (error instanceof GarFileError) throw new AppError(422, 'invalid_file', error.message);
        throw error;
      }
    }
    if (action === 'import-osm') {
      if (!location) throw new CommandUsageError(USAGE);
      const services = await open();
      try {
        const result = await services.addressImports.importOsm(location, progress);
        return `OpenStreetMap: ${result.addressed} addressed nodes and buildings read, ${result.matched} houses given coordinates in ${result.seconds.toFixed(1)} s.\n`;
      } catch (error) {
        if (error instanceof GarFileError) throw new AppError(422, 'invalid_file', error.message);
        throw error;
      }
    }
    if (action === 'status') {
      const status = await (await open()).addressImports.status();
      const lines = [
        `Address register: ${status.totals.regions} region(s), ${status.totals.objects} objects, ${status.totals.houses} houses, ${status.totals.flats} flats.`,
        ...status.imports.map(
          (record) =>
            `  import ${record.id} ${record.kind} ${record.state} ${record.started_at}${record.finished_at ? ` → ${record.finished_at}` : ''} ${record.source}` +
            `: ${Object.keys((JSON.parse(record.progress) as { regions?: object }).regions ?? {}).length} region(s) done` +
            (record.message ? `; ${record.message}` : ''),
        ),
      ];
      return `${lines.join('\n')}\n`;
    }
    throw new CommandUsageError(USAGE);
  },
};
