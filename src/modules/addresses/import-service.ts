/**
 * The address register's import as the CLI and the start of the service use it: the register's
 * archives (full or delta), an OpenStreetMap extract for houses' coordinates, the state of the
 * imports, and the sample shipped under data/ loaded into an empty database.
 */
import { dataFilePath } from '../../platform/reference-data.js';
import type { LocalityDirectory } from '../localities/directory.js';
import type { AddressImportStore, ImportRecord, RegionCounts } from './import-store.js';
import { RegisterImporter, type RegisterImportOptions, type RegisterImportResult } from './importer.js';
import { importOsmHouses, type OsmImportResult } from './osm-import.js';

/** The hand-made sample in the register's format (data/addresses/gar-sample/README.md). */
export const GAR_SAMPLE_DIR = dataFilePath('addresses/gar-sample');

export interface AddressImportStatus {
  totals: RegionCounts & { regions: number };
  imports: ImportRecord[];
}

export class AddressImportService {
  private readonly importer: RegisterImporter;

  constructor(
    private readonly store: AddressImportStore,
    private readonly localities: () => LocalityDirectory | null,
  ) {
    this.importer = new RegisterImporter(store, localities);
  }

  importRegister(location: string, options: RegisterImportOptions = {}): Promise<RegisterImportResult> {
    return this.importer.importRegister(location, options);
  }

  importOsm(file: string, onProgress?: (line: string) => void): Promise<OsmImportResult> {
    return importOsmHouses(this.store, file, onProgress);
  }

  async status(): Promise<AddressImportStatus> {
    return { totals: await this.store.totals(), imports: await this.store.recentImports(10) };
  }

  /** A first start (the tables empty) gets the sample, so that the demo and the tests have addresses. */
  async loadSampleIfEmpty(): Promise<RegisterImportResult | null> {
    if (!(await this.store.isEmpty())) return null;
    return this.importer.importRegister(GAR_SAMPLE_DIR);
  }
}
