import { AuditLog } from './audit-log.js';
import type { AuditStore } from './audit-store.js';

/** The audit log as the dashboard reads and writes it (services record their own entries in their transactions). */
export function createAudit(deps: { store: AuditStore }): AuditLog {
  return new AuditLog(deps);
}
