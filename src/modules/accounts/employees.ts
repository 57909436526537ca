/**
 * The account's employees and their roles: owners see the whole account; a manager
 * only the shops given (platform/auth.ts makes each of their requests act as one shop's key).
 * Only the account's token and its owners manage employees. A change of role or shops, and a
 * removal, goes through TokenResolver.revoke: no process keeps acting on the old scope.
 */
import { declareChange } from '../../platform/audit.js';
import { requireOwner, type Scope, type TokenResolver } from '../../platform/auth.js';
import { conflict, FieldErrorCollector, notFound } from '../../platform/errors.js';
import type { EmployeeChange, EmployeeInvite, EmployeeView } from './schemas.js';
import type { AccessService } from './access.js';
import type { AccountStore, EmployeeRecord } from './store.js';

function viewOf(record: EmployeeRecord): EmployeeView {
  return record;
}

export class EmployeeService {
  constructor(
    private readonly store: AccountStore,
    private readonly access: AccessService,
    private readonly tokens: TokenResolver,
  ) {}

  async list(scope: Scope): Promise<EmployeeView[]> {
    requireOwner(scope, 'see the employees');
    return (await this.store.employeeRecords(scope.accountId)).map(viewOf);
  }

  async get(scope: Scope, id: number): Promise<EmployeeView> {
    requireOwner(scope, 'see the employees');
    return viewOf(await this.find(scope, id));
  }

  /**
   * Invites an employee by e-mail: a link to choose their password, then they sign in with the
   * role and shops given here. Everything is checked before anything is written; the answer is
   * the invitation's id.
   */
  async invite(scope: Scope, input: EmployeeInvite): Promise<number> {
    requireOwner(scope, 'invite employees');
    const shopIds = await this.checkShops(scope, input.role, input.shopIds ?? []);
    return this.access.invite(scope.accountId, {
      name: input.name ?? '',
      email: input.email,
      role: input.role,
      shopIds,
    });
  }

  async change(scope: Scope, id: number, input: EmployeeChange): Promise<EmployeeView> {
    requireOwner(scope, 'change employees');
    const current = await this.find(scope, id);
    const shopIds = await this.checkShops(scope, input.role, input.shopIds ?? []);
    if (current.role === 'owner' && input.role !== 'owner') await this.keepAnOwner(scope, 'made a manager');
    const name = input.name?.trim();
    declareChange({ type: 'employees', ids: [id], before: current, after: { ...input, shopIds } });
    await this.store.setRole(scope.accountId, id, { role: input.role, shopIds, ...(name ? { name } : {}) });
    this.tokens.revoke(scope.accountId);
    return viewOf(await this.find(scope, id));
  }

  /** Removes the employee: their sign-ins stop working at once, in every process. */
  async remove(scope: Scope, id: number): Promise<void> {
    requireOwner(scope, 'remove employees');
    const current = await this.find(scope, id);
    if (current.role === 'owner') await this.keepAnOwner(scope, 'removed');
    declareChange({ type: 'employees', ids: [id], before: current, after: null });
    await this.store.deleteEmployee(scope.accountId, id);
    this.tokens.revoke(scope.accountId);
  }

  /** A manager's shops (names for the dashboard's shop switch); null when the caller is not a manager. */
  async managedShops(scope: Scope): Promise<Array<{ id: number; name: string }> | null> {
    if (scope.role !== 'manager' || scope.employeeId === null) return null;
    return this.store.managedShops(scope.accountId, scope.employeeId);
  }

  private async find(scope: Scope, id: number): Promise<EmployeeRecord> {
    const [record] = await this.store.employeeRecords(scope.accountId, id);
    if (!record) throw notFound('Employee', id);
    return record;
  }

  private async keepAnOwner(scope: Scope, what: string): Promise<void> {
    if ((await this.store.countOwners(scope.accountId)) <= 1) {
      throw conflict('last_owner', `The account's last owner cannot be ${what}: make another employee an owner first.`);
    }
  }

  private async checkShops(scope: Scope, role: EmployeeRecord['role'], requested: number[]): Promise<number[]> {
    const shopIds = [...new Set(requested)];
    const errors = new FieldErrorCollector();
    if (role === 'owner' && shopIds.length > 0)
      errors.add('shopIds', 'must be empty for an owner, who sees every shop');
    if (role === 'manager' && shopIds.length === 0) errors.add('shopIds', 'must name at least one shop for a manager');
    const known = await this.store.existingShopIds(scope.accountId, shopIds);
    shopIds.forEach((shopId, index) => {
      if (!known.has(shopId)) errors.add(`shopIds[${index}]`, `shop ${shopId} is not a shop of the account`);
    });
    errors.throwIfAny();
    return shopIds;
  }
}
