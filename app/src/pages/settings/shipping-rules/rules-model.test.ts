/** The shipping rules editor's logic without a browser: which rules the forms show, conditions emptied, moves, field errors by rule. */
import { describe, expect, it } from 'vitest';
import { DeliveryApiError } from '../../../api';
import { formsCanEdit, moved, newRule, problemsByRule, withBound, withCondition } from './rules-model';

describe('the shipping rules editor', () => {
  it('shows a rule in forms only when they show all of it', () => {
    expect(formsCanEdit(newRule('a'))).toBe(true);
    expect(formsCanEdit({ ...newRule('a'), conditions: { weight: { min: 1 }, weekdays: [6, 7] } })).toBe(true);
    expect(formsCanEdit({ ...newRule('a'), conditions: { tariffs: ['Эконом'] } })).toBe(false);
    expect(formsCanEdit({ ...newRule('a'), actions: [{ type: 'markup', percent: 5, floor: 100 }] })).toBe(false);
    expect(formsCanEdit({ ...newRule('a'), actions: [{ type: 'round', step: 10, mode: 'up' }] })).toBe(false);
    // a field left null by the forms is not a part they hide
    expect(formsCanEdit({ ...newRule('a'), actions: [{ type: 'markup', percent: 5, amount: null }] })).toBe(true);
  });

  it('leaves an emptied condition out', () => {
    const set = withCondition({}, 'cartValue', withBound(undefined, 'min', 1000));
    expect(set).toEqual({ cartValue: { min: 1000 } });
    expect(withCondition(set, 'cartValue', withBound(set.cartValue, 'min', ''))).toEqual({});
    expect(withCondition({ deliveryTypes: [2] }, 'deliveryTypes', [])).toEqual({});
  });

  it('moves a rule within the list only', () => {
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });

  it("gives the service's field errors to the rule they name", () => {
    const refusal = new DeliveryApiError(400, {
      code: 'validation_failed',
      message: 'invalid',
      errors: [
        { field: 'rules[1].actions[0].amount', message: 'is required' },
        { field: 'comment', message: 'too long' },
      ],
    });
    const { byRule, others } = problemsByRule(refusal);
    expect(byRule.get(1)).toEqual([{ field: 'actions[0].amount', message: 'is required' }]);
    expect(others).toEqual([{ field: 'comment', message: 'too long' }]);
    expect(problemsByRule(new Error('x')).byRule.size).toBe(0);
  });
});
