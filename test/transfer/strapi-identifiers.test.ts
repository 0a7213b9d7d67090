/**
 * Strapi 5's shortened database names, as its own code (@strapi/database 5.54 utils/identifiers,
 * lodash snakeCase) computes them for the same inputs: the expected strings were printed by
 * running that code, so a drift in the port shows here without the peer.
 */
import { describe, expect, test } from 'bun:test';
import { columnName, componentsTable, linkColumns, linkTable, snakeCase, tableName } from '../../src/transfer/strapi/identifiers';

const LONG_SINGULAR = 'extraordinarilyLongSingularNameForATestOfShorteningThings';

describe("Strapi's identifiers", () => {
  test('names of 55 characters or fewer stay as they are', () => {
    expect(tableName('articles')).toBe('articles');
    expect(componentsTable('components_shared_seos')).toBe('components_shared_seos_cmps');
    expect(linkTable('articles', 'tags')).toBe('articles_tags_lnk');
    expect(linkTable('homepages', 'featuredArticles')).toBe('homepages_featured_articles_lnk');
    expect(linkColumns('article', 'tag')).toEqual({ source: 'article_id', target: 'tag_id', order: 'tag_ord', inverseOrder: 'article_ord' });
    expect(linkColumns('article', 'article')).toEqual({
      source: 'article_id',
      target: 'inv_article_id',
      order: 'article_ord',
      inverseOrder: 'inv_article_ord',
    });
  });

  test('longer table, join table, column and link column names are shortened with the hash Strapi appends', () => {
    expect(tableName('components_marketing_very_long_category_names_for_testing_purposes')).toBe('components_marketing_very_long_category_names_for_d18fd');
    expect(tableName('a_collection_name_that_is_exactly_long_enough_to_be_cut_x')).toBe('a_collection_name_that_is_exactly_long_enough_to_bdb698');
    expect(componentsTable('components_marketing_very_long_category_names_for_testing')).toBe('components_marketing_very_long_category_names23d67_cmps');
    expect(linkTable('extraordinarily_long_collection_names', 'relatedExtraordinarilyLongThings')).toBe(
      'extraordinarily_longb1553_related_extraordinar789af_lnk',
    );
    expect(columnName('anAttributeWhoseNameIsFarTooLongForADatabaseIdentifierLimit')).toBe('an_attribute_whose_name_is_far_too_long_for_a_datae3aaf');
    expect(linkColumns(LONG_SINGULAR, 'tag')).toMatchObject({ source: 'extraordinarily_long_singular_name_for_a_test_o39d6d_id' });
    expect(linkColumns(LONG_SINGULAR, LONG_SINGULAR)).toEqual({
      source: 'extraordinarily_long_singular_name_for_a_test_o39d6d_id',
      target: 'inv_extraordinarily_long_singular_name_for_a_te39d6d_id',
      order: 'extraordinarily_long_singular_name_for_a_test_39d6d_ord',
      inverseOrder: 'inv_extraordinarily_long_singular_name_for_a_t39d6d_ord',
    });
  });

  test('snake case splits words at case changes and digits as lodash does', () => {
    expect(['field2Name', 'ABCDef', 'featuredArticles', 'my-kebab_name', 'HTMLParser'].map(snakeCase)).toEqual([
      'field_2_name',
      'abc_def',
      'featured_articles',
      'my_kebab_name',
      'html_parser',
    ]);
  });
});
