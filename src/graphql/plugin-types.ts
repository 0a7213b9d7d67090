/**
 * The parts of Strapi's GraphQL schema that do not come from the project's content types:
 * scalars, the filter inputs per scalar, pagination, publication status, and the types of
 * Strapi's own plugins (upload files, i18n locales, review workflows, users-permissions) with
 * their queries and mutations, spelled as `@strapi/plugin-graphql` 5 spells them. Types nothing
 * reaches are pruned when the schema is built (./schema-text.ts), as Strapi's schema is.
 */

const SCALAR_OPERATORS = ['eq', 'eqi', 'ne', 'nei', 'startsWith', 'endsWith', 'contains', 'notContains', 'containsi', 'notContainsi', 'gt', 'gte', 'lt', 'lte'];

/** The GraphQL scalars attributes map to (Strapi's SCALARS_ASSOCIATIONS). */
export const FILTERED_SCALARS = ['ID', 'Boolean', 'String', 'Int', 'Long', 'Float', 'Date', 'Time', 'DateTime', 'JSON'];

function scalarFilter(scalar: string): string {
  const lines = [
    `  and: [${scalar}]`,
    `  or: [${scalar}]`,
    `  not: ${scalar}FilterInput`,
    ...SCALAR_OPERATORS.map((op) => `  ${op}: ${scalar}`),
    '  null: Boolean',
    '  notNull: Boolean',
    `  in: [${scalar}]`,
    `  notIn: [${scalar}]`,
    `  between: [${scalar}]`,
  ];
  return `input ${scalar}FilterInput {\n${lines.join('\n')}\n}`;
}

const LOCALE_ARG = '"""The locale to use for the query"""\n    locale: I18NLocaleCode';

/** Each definition by its type name, so unreachable ones can be left out. */
export function pluginDefinitions(): Map<string, string> {
  const defs = new Map<string, string>();
  const add = (name: string, text: string) => defs.set(name, text);
  add(
    'JSON',
    '"""\nThe `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).\n"""\nscalar JSON',
  );
  add(
    'DateTime',
    '"""\nA date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.\n"""\nscalar DateTime',
  );
  add(
    'Date',
    '"""\nA date string, such as 2007-12-03, compliant with the `full-date` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.\n"""\nscalar Date',
  );
  add('Time', '"""A time string with format HH:mm:ss.SSS"""\nscalar Time');
  add('Long', '"""The `BigInt` scalar type represents non-fractional signed whole numeric values."""\nscalar Long');
  add('I18NLocaleCode', '"""A string used to identify an i18n locale"""\nscalar I18NLocaleCode');
  add('Error', 'type Error {\n  code: String!\n  message: String\n}');
  add('Pagination', 'type Pagination {\n  total: Int!\n  page: Int!\n  pageSize: Int!\n  pageCount: Int!\n}');
  add('DeleteMutationResponse', 'type DeleteMutationResponse {\n  documentId: ID!\n}');
  add('PublicationStatus', 'enum PublicationStatus {\n  DRAFT\n  PUBLISHED\n}');
  add(
    'PublicationFilter',
    `enum PublicationFilter {\n${[
      'NEVER_PUBLISHED',
      'HAS_PUBLISHED_VERSION',
      'MODIFIED',
      'UNMODIFIED',
      'NEVER_PUBLISHED_DOCUMENT',
      'HAS_PUBLISHED_VERSION_DOCUMENT',
      'PUBLISHED_WITHOUT_DRAFT',
      'PUBLISHED_WITH_DRAFT',
    ]
      .map((v) => `  ${v}`)
      .join('\n')}\n}`,
  );
  for (const scalar of FILTERED_SCALARS) add(`${scalar}FilterInput`, scalarFilter(scalar));
  add('PaginationArg', 'input PaginationArg {\n  page: Int\n  pageSize: Int\n  start: Int\n  limit: Int\n}');
  add('FileInfoInput', 'input FileInfoInput {\n  name: String\n  alternativeText: String\n  caption: String\n}');

  const stamps = '  createdAt: DateTime\n  updatedAt: DateTime\n  publishedAt: DateTime';
  const stampFilters = '  createdAt: DateTimeFilterInput\n  updatedAt: DateTimeFilterInput\n  publishedAt: DateTimeFilterInput';
  const logic = (name: string) => `  and: [${name}]\n  or: [${name}]\n  not: ${name}`;
  const nested = (filters: string) => `(filters: ${filters}, pagination: PaginationArg = {}, sort: [String] = [])`;
  const collections = (type: string) => {
    add(`${type}EntityResponseCollection`, `type ${type}EntityResponseCollection {\n  nodes: [${type}!]!\n  pageInfo: Pagination!\n}`);
    add(`${type}RelationResponseCollection`, `type ${type}RelationResponseCollection {\n  nodes: [${type}!]!\n}`);
  };

  // Upload files (plugin::upload.file).
  add(
    'UploadFileFiltersInput',
    `input UploadFileFiltersInput {\n  documentId: IDFilterInput\n  name: StringFilterInput\n  alternativeText: StringFilterInput\n  caption: StringFilterInput\n  focalPoint: JSONFilterInput\n  width: IntFilterInput\n  height: IntFilterInput\n  formats: JSONFilterInput\n  hash: StringFilterInput\n  ext: StringFilterInput\n  mime: StringFilterInput\n  size: FloatFilterInput\n  url: StringFilterInput\n  previewUrl: StringFilterInput\n  provider: StringFilterInput\n  provider_metadata: JSONFilterInput\n${stampFilters}\n${logic('UploadFileFiltersInput')}\n}`,
  );
  add(
    'UploadFile',
    `type UploadFile {\n  documentId: ID!\n  name: String!\n  alternativeText: String\n  caption: String\n  focalPoint: JSON\n  width: Int\n  height: Int\n  formats: JSON\n  hash: String!\n  ext: String\n  mime: String!\n  size: Float!\n  url: String!\n  previewUrl: String\n  provider: String!\n  provider_metadata: JSON\n  related: [GenericMorph]\n${stamps}\n}`,
  );
  collections('UploadFile');

  // i18n locales (plugin::i18n.locale).
  add(
    'I18NLocaleFiltersInput',
    `input I18NLocaleFiltersInput {\n  documentId: IDFilterInput\n  name: StringFilterInput\n  code: StringFilterInput\n${stampFilters}\n${logic('I18NLocaleFiltersInput')}\n}`,
  );
  add('I18NLocale', `type I18NLocale {\n  documentId: ID!\n  name: String\n  code: String\n${stamps}\n}`);
  collections('I18NLocale');

  // Review workflows (Strapi's, listed as Strapi lists them; Folio has none, so they are always empty).
  add(
    'ReviewWorkflowsWorkflowFiltersInput',
    `input ReviewWorkflowsWorkflowFiltersInput {\n  documentId: IDFilterInput\n  name: StringFilterInput\n  stages: ReviewWorkflowsWorkflowStageFiltersInput\n  stageRequiredToPublish: ReviewWorkflowsWorkflowStageFiltersInput\n  contentTypes: JSONFilterInput\n${stampFilters}\n${logic('ReviewWorkflowsWorkflowFiltersInput')}\n}`,
  );
  add(
    'ReviewWorkflowsWorkflowInput',
    'input ReviewWorkflowsWorkflowInput {\n  name: String\n  stages: [ID]\n  stageRequiredToPublish: ID\n  contentTypes: JSON\n  publishedAt: DateTime\n  locale: String\n}',
  );
  add(
    'ReviewWorkflowsWorkflow',
    `type ReviewWorkflowsWorkflow {\n  documentId: ID!\n  name: String!\n  stages_connection${nested('ReviewWorkflowsWorkflowStageFiltersInput')}: ReviewWorkflowsWorkflowStageRelationResponseCollection\n  stages${nested('ReviewWorkflowsWorkflowStageFiltersInput')}: [ReviewWorkflowsWorkflowStage]!\n  stageRequiredToPublish: ReviewWorkflowsWorkflowStage\n  contentTypes: JSON!\n${stamps}\n}`,
  );
  collections('ReviewWorkflowsWorkflow');
  add(
    'ReviewWorkflowsWorkflowStageFiltersInput',
    `input ReviewWorkflowsWorkflowStageFiltersInput {\n  documentId: IDFilterInput\n  name: StringFilterInput\n  color: StringFilterInput\n  workflow: ReviewWorkflowsWorkflowFiltersInput\n${stampFilters}\n${logic('ReviewWorkflowsWorkflowStageFiltersInput')}\n}`,
  );
  add(
    'ReviewWorkflowsWorkflowStageInput',
    'input ReviewWorkflowsWorkflowStageInput {\n  name: String\n  color: String\n  workflow: ID\n  publishedAt: DateTime\n  locale: String\n}',
  );
  add(
    'ReviewWorkflowsWorkflowStage',
    `type ReviewWorkflowsWorkflowStage {\n  documentId: ID!\n  name: String\n  color: String\n  workflow: ReviewWorkflowsWorkflow\n${stamps}\n}`,
  );
  collections('ReviewWorkflowsWorkflowStage');

  // users-permissions: permissions and roles (the user type is generated: it carries the project's extension).
  add(
    'UsersPermissionsPermissionFiltersInput',
    `input UsersPermissionsPermissionFiltersInput {\n  documentId: IDFilterInput\n  action: StringFilterInput\n  role: UsersPermissionsRoleFiltersInput\n${stampFilters}\n${logic('UsersPermissionsPermissionFiltersInput')}\n}`,
  );
  add('UsersPermissionsPermission', `type UsersPermissionsPermission {\n  documentId: ID!\n  action: String!\n  role: UsersPermissionsRole\n${stamps}\n}`);
  collections('UsersPermissionsPermission');
  add(
    'UsersPermissionsRoleFiltersInput',
    `input UsersPermissionsRoleFiltersInput {\n  documentId: IDFilterInput\n  name: StringFilterInput\n  description: StringFilterInput\n  type: StringFilterInput\n  permissions: UsersPermissionsPermissionFiltersInput\n  users: UsersPermissionsUserFiltersInput\n${stampFilters}\n${logic('UsersPermissionsRoleFiltersInput')}\n}`,
  );
  add(
    'UsersPermissionsRoleInput',
    'input UsersPermissionsRoleInput {\n  name: String\n  description: String\n  type: String\n  permissions: [ID]\n  users: [ID]\n  publishedAt: DateTime\n  locale: String\n}',
  );
  add(
    'UsersPermissionsRole',
    `type UsersPermissionsRole {\n  documentId: ID!\n  name: String!\n  description: String\n  type: String\n  permissions_connection${nested('UsersPermissionsPermissionFiltersInput')}: UsersPermissionsPermissionRelationResponseCollection\n  permissions${nested('UsersPermissionsPermissionFiltersInput')}: [UsersPermissionsPermission]!\n  users_connection${nested('UsersPermissionsUserFiltersInput')}: UsersPermissionsUserRelationResponseCollection\n  users${nested('UsersPermissionsUserFiltersInput')}: [UsersPermissionsUser]!\n${stamps}\n}`,
  );
  collections('UsersPermissionsRole');
  add('UsersPermissionsUserEntityResponse', 'type UsersPermissionsUserEntityResponse {\n  data: UsersPermissionsUser\n}');
  add(
    'UsersPermissionsMe',
    'type UsersPermissionsMe {\n  id: ID!\n  documentId: ID!\n  username: String!\n  email: String\n  confirmed: Boolean\n  blocked: Boolean\n  role: UsersPermissionsMeRole\n}',
  );
  add('UsersPermissionsMeRole', 'type UsersPermissionsMeRole {\n  id: ID!\n  name: String!\n  description: String\n  type: String\n}');
  add('UsersPermissionsRegisterInput', 'input UsersPermissionsRegisterInput {\n  username: String!\n  email: String!\n  password: String!\n}');
  add('UsersPermissionsLoginInput', 'input UsersPermissionsLoginInput {\n  identifier: String!\n  password: String!\n  provider: String! = "local"\n}');
  add('UsersPermissionsPasswordPayload', 'type UsersPermissionsPasswordPayload {\n  ok: Boolean!\n}');
  add('UsersPermissionsLoginPayload', 'type UsersPermissionsLoginPayload {\n  jwt: String\n  user: UsersPermissionsMe!\n}');
  for (const verb of ['Create', 'Update', 'Delete']) {
    add(`UsersPermissions${verb}RolePayload`, `type UsersPermissions${verb}RolePayload {\n  ok: Boolean!\n}`);
  }
  return defs;
}

/** Query fields of Strapi's plugins that come before the project's own (Strapi's order), as SDL lines. */
export function pluginQueries(publication: string): string[] {
  const list = (plural: string, type: string) => [
    `  ${plural}_connection(filters: ${type}FiltersInput, pagination: PaginationArg = {}, sort: [String] = [], ${publication}): ${type}EntityResponseCollection`,
    `  ${plural}(filters: ${type}FiltersInput, pagination: PaginationArg = {}, sort: [String] = [], ${publication}): [${type}]!`,
  ];
  const one = (singular: string, type: string) => `  ${singular}(documentId: ID!, ${publication}): ${type}`;
  return [
    one('uploadFile', 'UploadFile'),
    ...list('uploadFiles', 'UploadFile'),
    one('i18NLocale', 'I18NLocale'),
    ...list('i18NLocales', 'I18NLocale'),
    one('reviewWorkflowsWorkflow', 'ReviewWorkflowsWorkflow'),
    ...list('reviewWorkflowsWorkflows', 'ReviewWorkflowsWorkflow'),
    one('reviewWorkflowsWorkflowStage', 'ReviewWorkflowsWorkflowStage'),
    ...list('reviewWorkflowsWorkflowStages', 'ReviewWorkflowsWorkflowStage'),
    one('usersPermissionsRole', 'UsersPermissionsRole'),
    ...list('usersPermissionsRoles', 'UsersPermissionsRole'),
    one('usersPermissionsUser', 'UsersPermissionsUser'),
    ...list('usersPermissionsUsers', 'UsersPermissionsUser'),
  ];
}

/** Mutations of Strapi's plugins before the project's own (review workflows) and after them (upload, users-permissions). */
export function pluginMutations(): { before: string[]; after: string[] } {
  const crud = (type: string) => [
    `  create${type}(status: PublicationStatus = PUBLISHED, data: ${type}Input!): ${type}`,
    `  update${type}(documentId: ID!, status: PublicationStatus = PUBLISHED, data: ${type}Input!): ${type}`,
    `  delete${type}(documentId: ID!): DeleteMutationResponse`,
  ];
  return {
    before: [...crud('ReviewWorkflowsWorkflow'), ...crud('ReviewWorkflowsWorkflowStage')],
    after: [
      '  updateUploadFile(id: ID!, info: FileInfoInput): UploadFile!',
      '  deleteUploadFile(id: ID!): UploadFile',
      '  """Create a new role"""\n  createUsersPermissionsRole(data: UsersPermissionsRoleInput!): UsersPermissionsCreateRolePayload',
      '  """Update an existing role"""\n  updateUsersPermissionsRole(id: ID!, data: UsersPermissionsRoleInput!): UsersPermissionsUpdateRolePayload',
      '  """Delete an existing role"""\n  deleteUsersPermissionsRole(id: ID!): UsersPermissionsDeleteRolePayload',
      '  """Create a new user"""\n  createUsersPermissionsUser(data: UsersPermissionsUserInput!): UsersPermissionsUserEntityResponse!',
      '  """Update an existing user"""\n  updateUsersPermissionsUser(id: ID!, data: UsersPermissionsUserInput!): UsersPermissionsUserEntityResponse!',
      '  """Delete an existing user"""\n  deleteUsersPermissionsUser(id: ID!): UsersPermissionsUserEntityResponse!',
      '  login(input: UsersPermissionsLoginInput!): UsersPermissionsLoginPayload!',
      '  """Register a user"""\n  register(input: UsersPermissionsRegisterInput!): UsersPermissionsLoginPayload!',
      '  """Request a reset password token"""\n  forgotPassword(email: String!): UsersPermissionsPasswordPayload',
      '  """\n  Reset user password. Confirm with a code (resetToken from forgotPassword)\n  """\n  resetPassword(password: String!, passwordConfirmation: String!, code: String!): UsersPermissionsLoginPayload',
      '  """Change user password. Confirm with the current password."""\n  changePassword(currentPassword: String!, password: String!, passwordConfirmation: String!): UsersPermissionsLoginPayload',
      '  """Confirm an email users email address"""\n  emailConfirmation(confirmation: String!): UsersPermissionsLoginPayload',
    ],
  };
}

export { LOCALE_ARG };
