/** modules/reports, the area definition (src/modules.ts lists it): Bills and agent reports of each billing period, payments of bills, analytical reports. */
import { defineModule } from '../../platform/module.js';
import { billingCommand } from './commands.js';
import { reportRoutes, type ReportsRouteServices } from './routes.js';
import { AgentReport, AnalyticalReport, Bill } from './schemas.js';
import type { ReportTables } from './tables.js';

export const reportsModule = defineModule<ReportsRouteServices, ReportTables>({
  area: 'reports',
  purpose: 'Bills and agent reports of each billing period, payments of bills, analytical reports.',
  offers: ['billing', 'analyticalReports'],
  dependsOn: ['orders', 'fulfilment', 'pickups', 'products', 'warehouses', 'accounts'],
  migrationHistory: ['0014_reports', '0020_report_indexes'],
  tags: [
    {
      name: 'Reports',
      description: 'Contract 4.8: bills and agent reports of each billing period, analytical reports (xlsx).',
    },
    {
      name: 'Billing operators (extension)',
      description:
        "Extension: the service's billing operators record payments of bills (operator tokens of the billing scope, from the CLI).",
    },
  ],
  schemas: { Bill, AgentReport, AnalyticalReport },
  routes: reportRoutes,
  jobs: (worker, services) => {
    services.billing.registerJobs(worker);
    services.analyticalReports.registerJobs(worker);
  },
  schedules: async (services) => {
    await services.billing.scheduleSweep();
  },
  commands: { billing: billingCommand },
});
