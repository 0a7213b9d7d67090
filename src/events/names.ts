/**
 * The events Folio records, with Strapi's names. `entry.draft-discard` is the one Strapi 5's
 * document service emits for discardDraft; the others are its webhook events.
 */
export const ENTRY_EVENTS = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'entry.draft-discard'] as const;
export const MEDIA_EVENTS = ['media.create', 'media.update', 'media.delete'] as const;
/** A release published (src/releases/): Strapi's content-releases event. */
export const RELEASE_EVENTS = ['releases.publish'] as const;
export const EVENT_NAMES: readonly string[] = [...ENTRY_EVENTS, ...MEDIA_EVENTS, ...RELEASE_EVENTS];

export type EntryEvent = (typeof ENTRY_EVENTS)[number];
export type MediaEvent = (typeof MEDIA_EVENTS)[number];
export type EventName = EntryEvent | MediaEvent | (typeof RELEASE_EVENTS)[number];

/** The uid release events carry in the outbox (Strapi's content-releases type). */
export const RELEASE_UID = 'plugin::content-releases.release';

/** The uid media events carry (Strapi's upload plugin's file type). */
export const FILE_UID = 'plugin::upload.file';

/** What `folio webhook test` sends, as Strapi's "trigger" button does. */
export const TEST_EVENT = 'trigger-test';
