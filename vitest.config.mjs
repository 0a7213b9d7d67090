// Vitest runs only the tests written for both runners (the rest of test/ is bun test's):
// test/library/from-node.test.ts loads folio-cms's Node entry here, its Bun entry under bun test.
export default {
  test: {
    include: ['test/library/from-node.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
};
