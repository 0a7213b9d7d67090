/**
 * The example content types (the blog fixture), embedded so `folio init` works from the
 * single binary with nothing beside it.
 */
import article from '../../content-types/article.json' with { type: 'text' };
import author from '../../content-types/author.json' with { type: 'text' };
import category from '../../content-types/category.json' with { type: 'text' };
import global from '../../content-types/global.json' with { type: 'text' };
import homepage from '../../content-types/homepage.json' with { type: 'text' };
import tag from '../../content-types/tag.json' with { type: 'text' };
import shared_link from '../../content-types/components/shared/link.json' with { type: 'text' };
import shared_media from '../../content-types/components/shared/media.json' with { type: 'text' };
import shared_quote from '../../content-types/components/shared/quote.json' with { type: 'text' };
import shared_rich_text from '../../content-types/components/shared/rich-text.json' with { type: 'text' };
import shared_seo from '../../content-types/components/shared/seo.json' with { type: 'text' };

/** Relative path → file text. */
export const exampleContent: Record<string, string> = {
  'article.json': article as unknown as string,
  'author.json': author as unknown as string,
  'category.json': category as unknown as string,
  'global.json': global as unknown as string,
  'homepage.json': homepage as unknown as string,
  'tag.json': tag as unknown as string,
  'components/shared/link.json': shared_link as unknown as string,
  'components/shared/media.json': shared_media as unknown as string,
  'components/shared/quote.json': shared_quote as unknown as string,
  'components/shared/rich-text.json': shared_rich_text as unknown as string,
  'components/shared/seo.json': shared_seo as unknown as string,
};
