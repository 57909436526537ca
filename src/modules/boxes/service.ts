/** Parcel boxes of an account (packing material with its own size and weight). */
import type { Scope } from '../../platform/auth.js';
import { FieldErrorCollector, notFound } from '../../platform/errors.js';
import { gramsOf } from '../../platform/measures.js';
import type { Page, Paging } from '../../platform/paging.js';
import type { Box, BoxInput, BoxListQuery, BoxPatch } from './schemas.js';
import type { BoxFilter, BoxStore, BoxValues } from './store.js';

export class BoxService {
  constructor(private readonly store: BoxStore) {}

  async list(scope: Scope, query: BoxListQuery, paging: Paging): Promise<Page<Box>> {
    const filter: BoxFilter = {};
    if (query.name) filter.nameContains = query.name;
    if (query.width !== undefined) filter.width = query.width;
    if (query.height !== undefined) filter.height = query.height;
    if (query.length !== undefined) filter.length = query.length;
    if (query.weight !== undefined) filter.weightGrams = Math.round(query.weight * 1000);
    return this.store.list(scope.accountId, filter, paging);
  }

  async get(scope: Scope, id: number): Promise<Box> {
    const box = await this.store.get(scope.accountId, id);
    if (!box) throw notFound('Box', id);
    return box;
  }

  async create(scope: Scope, input: BoxInput): Promise<number> {
    return this.store.insert(scope.accountId, this.validate(input));
  }

  async replace(scope: Scope, id: number, input: BoxInput): Promise<void> {
    await this.get(scope, id);
    await this.store.update(scope.accountId, id, this.validate(input));
  }

  /** Changes only what is sent; `null` clears name or weight. */
  async patch(scope: Scope, id: number, patch: BoxPatch): Promise<void> {
    const current = await this.get(scope, id);
    const merged: BoxInput = {
      name: patch.name !== undefined ? patch.name : current.name,
      dimensions: { ...current.dimensions, ...patch.dimensions },
      weight: patch.weight !== undefined ? patch.weight : current.weight,
    };
    await this.store.update(scope.accountId, id, this.validate(merged));
  }

  async delete(scope: Scope, id: number): Promise<void> {
    if (!(await this.store.delete(scope.accountId, id))) throw notFound('Box', id);
  }

  private validate(input: BoxInput): BoxValues {
    const problems = new FieldErrorCollector();
    const weightGrams =
      input.weight === undefined || input.weight === null ? null : gramsOf(input.weight, 'weight', problems);
    problems.throwIfAny();
    const name = input.name?.trim() ?? null;
    return {
      name: name === '' ? null : name,
      width: input.dimensions.width,
      height: input.dimensions.height,
      length: input.dimensions.length,
      weightGrams,
    };
  }
}
