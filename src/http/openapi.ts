/** The OpenAPI document lives in ./openapi/ (one file per job); this keeps the import path the routes use. */
export { buildOpenApi } from './openapi/document';
