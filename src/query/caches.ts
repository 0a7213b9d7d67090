/**
 * The read caches, behind one object the composition root makes per instance: what a read
 * may reuse, keyed by exactly what it depends on.
 *
 *  - plans: a request's read plan, by the caller's grants (auth/access.ts grantsKey: the public
 *    role, a user's role, an API token), the content type and the query text; forgotten at
 *    every settings write (the grants and the default locale shape a plan), by anyone;
 *  - answers: the bytes of a read's answer (./answer-cache.ts), by the caller's grants, the
 *    response format and the URL; forgotten at every commit, by anyone.
 *
 * Totals and compiled statements ride on these (the document service keeps totals until the
 * next commit; a reused plan keeps its compiled statements).
 */
import { ChangeCache } from '../db/cache';
import type { Database } from '../db/database';
import { AnswerCache } from './answer-cache';
import type { ReadQuery } from './types';

/** Plans kept between two settings writes. */
const PLAN_ENTRIES = 2000;

export class ReadCaches {
  readonly answers: AnswerCache;
  private plans: ChangeCache<string, ReadQuery>;

  constructor(db: Database, options: { answerBytes: number }) {
    this.answers = new AnswerCache(db, options.answerBytes);
    this.plans = ChangeCache.settings<string, ReadQuery>(db, PLAN_ENTRIES);
  }

  /** The plan of `query` on `uid` for callers holding `grants`: kept, or built by `build` and kept. */
  plan(grants: string, uid: string, query: string, build: () => Promise<ReadQuery>): Promise<ReadQuery> {
    return this.plans.get(`${grants}\n${uid}\n${query}`, build);
  }
}
