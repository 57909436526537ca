/** modules/documents, the area definition (src/modules.ts lists it): Stickers, waybills and acts, assembly statements (PDF); the movement report of contract 4.5, which the fulfilment area makes (xlsx). */
import { defineModule } from '../../platform/module.js';
import { documentRoutes, type DocumentsRouteServices } from './routes.js';
import { FileResult, PlacesRequired, StickerSet, WaybillSet, WaybillsResult } from './schemas.js';
import type { DocumentTables } from './tables.js';

export const documentsModule = defineModule<DocumentsRouteServices, DocumentTables>({
  area: 'documents',
  purpose:
    'Stickers, waybills and acts, assembly statements (PDF); the movement report of contract 4.5, which the fulfilment area makes (xlsx).',
  offers: ['documents'],
  dependsOn: ['orders', 'warehouses', 'boxes', 'companies', 'fulfilment'],
  migrationHistory: ['0007_documents', '0070_thermal_labels'],
  tags: [
    { name: 'Documents', description: 'Contract 4.5: stickers, waybills and handover acts, assembly statements.' },
  ],
  schemas: { FileResult, StickerSet, WaybillSet, WaybillsResult, PlacesRequired },
  routes: documentRoutes,
  jobs: (worker, services) => {
    services.documents.registerJobs(worker);
  },
});
