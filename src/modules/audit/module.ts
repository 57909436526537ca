/** modules/audit, the area definition (src/modules.ts lists it): the audit trail's reading, sealing, verification and retention. */
import { defineModule, type BackgroundWork } from '../../platform/module.js';
import { auditCommand } from './commands.js';
import { auditTrail } from './migrations/0111_audit_trail.js';
import { auditRoutes } from './routes.js';
import { AuditEntryView, AuditSettings } from './schemas.js';
import type { AuditService } from './service.js';

/** How often committed entries are sealed into their chains. */
const SEAL_EVERY_MS = 2000;

export const auditModule = defineModule<{ audit: AuditService }>({
  area: 'audit',
  purpose:
    "The audit trail: every change's entry (written by platform/audit.ts in the change's transaction), sealed into a hash chain per account; reading, export, verification, retention.",
  offers: ['audit'],
  dependsOn: [],
  migrationHistory: [],
  migrations: [auditTrail],
  tags: [
    {
      name: 'Audit trail (extension)',
      description:
        'Extension: who changed what (employee, scoped key, account token, shop key, operator, system), the operation, the records, when, from where and, for settings, the values before and after; chained by sha-256 so a removed or edited entry is found by `npm run cli -- audit verify`.',
    },
  ],
  schemas: { AuditEntry: AuditEntryView, AuditSettings },
  routes: (app, services) => auditRoutes(app, services),
  hourly: (services) => ({ 'audit trail retention': () => services.audit.applyRetention() }),
  background: (services, log): BackgroundWork[] => {
    let timer: NodeJS.Timeout | null = null;
    let running: Promise<unknown> = Promise.resolve();
    return [
      {
        start() {
          timer = setInterval(() => {
            running = services.audit
              .seal()
              .catch((error: unknown) => log.error({ err: error }, 'audit sealing failed'));
          }, SEAL_EVERY_MS);
          timer.unref();
        },
        async stop() {
          if (timer) clearInterval(timer);
          timer = null;
          await running;
        },
      },
    ];
  },
  commands: { audit: auditCommand },
});
