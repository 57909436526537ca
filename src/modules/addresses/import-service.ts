/**
 * The address register's import as the CLI and the start of the service use it: the register's
 * archives (full or delta), an OpenStreetMap extract for houses' coordinates, the state of the
 * imports, and the sample shipped under data/ loaded into an empty database.
 */
import { dataFilePath } from '../../platform/reference-data.js';
import type { LocalityDirectory } from '../localities/directory.js';
import type { AddressImportStore, ImportRecord, RegionCounts } from './import-store.js';
import type { RegisterImporter, RegisterImportOptions, RegisterImportResult } from './importer.js';
import type { OsmImportResult } from './osm-import.js';

/** The hand-made sample in the register's format (data/addresses/gar-sample/README.md). */
export const GAR_SAMPLE_DIR = dataFilePath('addresses/gar-sample');

export interface AddressImportStatus {
  totals: RegionCounts & { regions: number };
  imports: ImportRecord[];
}

export class AddressImportService {
  /** Loaded on first use: the XML and zip readers are needed by an import only, never by a start that fails or a request. */
  private importer: Promise<RegisterImporter> | null = null;

  constructor(
    private readonly store: AddressImportStore,
    private readonly localities: () => LocalityDirectory | null,
  ) {}

  async importRegister(location: string, options: RegisterImportOptions = {}): Promise<RegisterImportResult> {
    this.importer ??= import('./importer.js').then(
      ({ RegisterImporter }) => new RegisterImporter(this.store, this.localities),
    );
    return (await this.importer).importRegister(location, options);
  }

  async importOsm(file: string, onProgress?: (line: string) => void): Promise<OsmImportResult> {
    const { importOsmHouses } = await import('./osm-import.js');
    return importOsmHouses(this.store, file, onProgress);
  }

  async status(): Promise<AddressImportStatus> {
    return { totals: await this.store.totals(), imports: await this.store.recentImports(10) };
  }

  /** A first start (the tables empty) gets the sample, so that the demo and the tests have addresses. */
  async loadSampleIfEmpty(): Promise<RegisterImportResult | null> {
    if (!(await this.store.isEmpty())) return null;
    return this.importRegister(GAR_SAMPLE_DIR);
  }
}
