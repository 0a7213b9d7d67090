/**
 * The JSON Logic of Strapi 5's conditional fields, evaluated as json-logic-js (which Strapi
 * runs) evaluates it: every expectation below is json-logic-js's answer for the same rule.
 */
import { describe, expect, test } from 'bun:test';
import { evaluate, isVisible, unsupportedOperator } from '../../../src/registry/conditions';

describe('conditional field rules', () => {
  test.each([
    [{ '==': [{ var: 'type' }, 'url'] }, { type: 'url' }, true],
    [{ '==': [{ var: 'n' }, '1'] }, { n: 1 }, true],
    [{ '===': [{ var: 'n' }, '1'] }, { n: 1 }, false],
    [{ '==': [{ var: 'missing' }, null] }, {}, true],
    [{ '!=': [{ var: 'type' }, 'page'] }, {}, true],
    [{ '!': { var: 'newTab' } }, {}, true],
    [{ '!': [{ var: 'list' }] }, { list: [] }, true],
    [{ '!!': [{ var: 'list' }] }, { list: [1] }, true],
    [{ and: [{ var: 'a' }, { var: 'b' }] }, { a: 1, b: 0 }, 0],
    [{ or: [{ var: 'a' }, { var: 'b' }] }, { a: 0, b: 'x' }, 'x'],
    [{ in: [{ var: 'type' }, ['email', 'url']] }, { type: 'url' }, true],
    [{ in: ['rl', { var: 'type' }] }, { type: 'url' }, true],
    [{ in: [{ var: 'type' }, 5] }, { type: 'url' }, false],
    [{ var: ['a.b', 'fallback'] }, { a: {} }, 'fallback'],
    [{ var: 'a.b' }, { a: { b: 3 } }, 3],
    [{ '<': [1, { var: 'x' }, 3] }, { x: 2 }, true],
    [{ if: [{ var: 'x' }, 'yes', 'no'] }, { x: 0 }, 'no'],
  ])('%j on %j is %j', (rule, data, expected) => {
    expect(evaluate(rule, data as Record<string, unknown>)).toEqual(expected);
  });

  test('an empty array is false, as JSON Logic says', () => {
    expect(isVisible({ var: 'tags' }, { tags: [] })).toBe(false);
    expect(isVisible({ var: 'tags' }, { tags: ['a'] })).toBe(true);
  });

  test('names the first operator it does not evaluate, anywhere in the rule', () => {
    expect(unsupportedOperator({ and: [{ '==': [1, 1] }, { cat: ['a', 'b'] }] })).toBe('cat');
    expect(unsupportedOperator({ or: [{ in: [{ var: 'x' }, ['a']] }, { '!': { var: 'y' } }] })).toBeUndefined();
  });
});
