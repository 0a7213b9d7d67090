/**
 * Populate trees at the edge of the request limits (src/query/limits.ts), shared by the tests
 * that check the limits' answers and the ones that time the worst shapes.
 */

/** `populate` for author → mentor × `mentors` → `*`: `mentors` + 2 levels. */
export function mentorChain(mentors: number): object {
  let node: object = { populate: '*' };
  for (let i = 0; i < mentors; i++) node = { populate: { mentor: node } };
  return { author: node };
}

/** `levels` levels of related articles, 10 attributes each, and author's 3 relations on the first `authors` levels. */
export function widePopulate(levels: number, authors: number, level = 1): object {
  return {
    cover: true,
    gallery: true,
    category: true,
    tags: true,
    seo: true,
    links: true,
    blocks: true,
    localizations: true,
    author: level <= authors ? { populate: { avatar: true, articles: true, mentor: true } } : true,
    related: level < levels ? { populate: widePopulate(levels, authors, level + 1) } : true,
  };
}
