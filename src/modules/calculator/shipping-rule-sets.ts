/**
 * A shop's shipping rules, stored per account and shop, one row per version (an extension):
 * read, replaced (validated with field errors), listed by version and reverted.
 * The calculator reads the current rules compiled, from the account read cache, so a
 * calculation with rules costs a map lookup and every process forgets a change at once.
 */
import { declareChange } from '../../platform/audit.js';
import type { Kysely } from 'kysely';
import type { Scope } from '../../platform/auth.js';
import type { AccountReadCache } from '../../platform/cache.js';
import type { Tables } from '../../platform/db/tables.js';
import { fromJson, isUniqueViolation, nowIso, toJson } from '../../platform/db/values.js';
import { conflict, fieldErrors, notFound } from '../../platform/errors.js';
import type { ShopService } from '../shops/service.js';
import { compileRules, ruleProblems, type CompiledRules } from './shipping-rules.js';
import type {
  ShippingRule,
  ShippingRuleSet,
  ShippingRuleVersion,
  ShippingRulesInput,
} from './shipping-rules-schemas.js';

const CACHE_TOPIC = 'shipping-rules';
/** Versions listed, newest first: a shop that edits daily has years of them. */
const VERSIONS_LISTED = 200;
/** Two writers of one shop at once: the later one takes the next version number. */
const WRITE_ATTEMPTS = 3;

interface VersionRow {
  version: number;
  rules: unknown;
  rule_count: number;
  comment: string | null;
  reverted_from: number | null;
  created_by_kind: string;
  created_by_employee: number | null;
  created_at: string;
}

export class ShippingRuleStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async current(accountId: number, shopId: number): Promise<VersionRow | undefined> {
    return this.db
      .selectFrom('shipping_rule_versions')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('shop_id', '=', shopId)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async version(accountId: number, shopId: number, version: number): Promise<VersionRow | undefined> {
    return this.db
      .selectFrom('shipping_rule_versions')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('shop_id', '=', shopId)
      .where('version', '=', version)
      .executeTakeFirst();
  }

  async versions(accountId: number, shopId: number): Promise<Array<Omit<VersionRow, 'rules'>>> {
    return this.db
      .selectFrom('shipping_rule_versions')
      .select([
        'version',
        'rule_count',
        'comment',
        'reverted_from',
        'created_by_kind',
        'created_by_employee',
        'created_at',
      ])
      .where('account_id', '=', accountId)
      .where('shop_id', '=', shopId)
      .orderBy('version', 'desc')
      .limit(VERSIONS_LISTED)
      .execute();
  }

  async insert(accountId: number, shopId: number, row: VersionRow): Promise<void> {
    await this.db
      .insertInto('shipping_rule_versions')
      .values({ account_id: accountId, shop_id: shopId, ...row, rules: toJson(row.rules) })
      .execute();
  }
}

function presentVersion(row: Omit<VersionRow, 'rules'>): ShippingRuleVersion {
  return {
    version: row.version,
    createdAt: new Date(row.created_at).toISOString(),
    createdBy: {
      kind: row.created_by_kind as 'account' | 'employee' | 'shop',
      employeeId: row.created_by_employee === null ? null : Number(row.created_by_employee),
    },
    comment: row.comment,
    revertedFrom: row.reverted_from,
    ruleCount: row.rule_count,
  };
}

const NEVER_WRITTEN: ShippingRuleSet = {
  version: 0,
  createdAt: null,
  createdBy: null,
  comment: null,
  revertedFrom: null,
  ruleCount: 0,
  rules: [],
};

export class ShippingRuleSets {
  constructor(
    private readonly store: ShippingRuleStore,
    private readonly shops: ShopService,
    private readonly cache: AccountReadCache,
  ) {}

  /** The shop's current rules (version 0 and none when never written); 404 for a shop of another account. */
  async get(scope: Scope, shopId: number): Promise<ShippingRuleSet> {
    await this.shops.get(scope, shopId);
    const row = await this.store.current(scope.accountId, shopId);
    return row ? { ...presentVersion(row), rules: fromJson<ShippingRule[]>(row.rules) } : NEVER_WRITTEN;
  }

  async versions(scope: Scope, shopId: number): Promise<{ items: ShippingRuleVersion[] }> {
    await this.shops.get(scope, shopId);
    return { items: (await this.store.versions(scope.accountId, shopId)).map(presentVersion) };
  }

  /** Checks the rules beyond the schema: a 400 naming each field, nothing written. */
  check(rules: ShippingRule[], path = 'rules'): void {
    const problems = ruleProblems(rules, path);
    if (problems.length) throw fieldErrors(problems);
  }

  async put(scope: Scope, shopId: number, input: ShippingRulesInput): Promise<ShippingRuleSet> {
    await this.shops.get(scope, shopId);
    this.check(input.rules);
    return this.write(scope, shopId, input.rules, input.comment ?? null, null);
  }

  /** Makes a new version holding an old version's rules. */
  async revert(scope: Scope, shopId: number, version: number): Promise<ShippingRuleSet> {
    await this.shops.get(scope, shopId);
    const row = await this.store.version(scope.accountId, shopId, version);
    if (!row) throw notFound('Shipping rules version', version);
    return this.write(scope, shopId, fromJson<ShippingRule[]>(row.rules), null, version);
  }

  private async write(
    scope: Scope,
    shopId: number,
    rules: ShippingRule[],
    comment: string | null,
    revertedFrom: number | null,
  ): Promise<ShippingRuleSet> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.store.current(scope.accountId, shopId);
      const row: VersionRow = {
        version: (current?.version ?? 0) + 1,
        rules,
        rule_count: rules.length,
        comment,
        reverted_from: revertedFrom,
        created_by_kind: scope.kind,
        created_by_employee: scope.employeeId,
        created_at: nowIso(),
      };
      declareChange({
        type: 'shipping_rules',
        ids: [shopId],
        before: current ? { version: current.version, rules: fromJson<ShippingRule[]>(current.rules) } : null,
        after: { version: row.version, rules, comment, revertedFrom },
      });
      try {
        await this.store.insert(scope.accountId, shopId, row);
      } catch (error) {
        if (isUniqueViolation(error) && attempt < WRITE_ATTEMPTS) continue;
        if (isUniqueViolation(error))
          throw conflict('concurrent_change', 'The shipping rules were changed at the same moment: send them again.');
        throw error;
      }
      // calculations (and their remembered answers, keyed by the version) see the new rules at once
      this.cache.invalidate(scope.accountId, CACHE_TOPIC);
      return { ...presentVersion(row), rules };
    }
  }

  /** The shop's current rules compiled for the calculator, or null when it has none enabled. */
  async forShop(accountId: number, shopId: number): Promise<CompiledRules | null> {
    return this.cache.read(accountId, CACHE_TOPIC, `shop:${shopId}`, async () => {
      const row = await this.store.current(accountId, shopId);
      if (!row) return null;
      const compiled = compileRules(fromJson<ShippingRule[]>(row.rules), row.version);
      return compiled.rules.length ? compiled : null;
    });
  }
}
