// Wire shapes of the configuration document routes.
import { Type, type Static } from 'typebox'
import { SeedBooleanSchema, VersionNameSchema, oneOfPattern, type Wording } from '@slipway/common'
import { QuerySchema, withDefault } from './query.ts'

/** A collection name: a path segment the store can keep (no traversal, no separators). */
export const CollectionIdSchema = Type.String({
  pattern: '^(?!.*\\.\\.)[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$',
  description: 'Collection name',
  'x-invalid': {
    message: 'Invalid collection name',
    reason: 'A collection name is 1 to 128 letters, digits, dots, dashes or underscores, starting with a letter or digit'
  } satisfies Wording
})
export const CollectionParamsSchema = Type.Object({ collection_id: CollectionIdSchema })

/** `version` of GET /configdocs: two names, comma separated, or repeated `versions` (the Shipyard CLI's form). */
const VersionListSchema = Type.Array(Type.String(), { description: 'Two versions to compare, e.g. committed,buffer' })
export const StatusQuerySchema = QuerySchema({
  version: Type.Optional(VersionListSchema),
  versions: Type.Optional(VersionListSchema)
})

export const CollectionStatusSchema = Type.Object({
  collection_name: Type.String(),
  base_version: Type.String(),
  base_revision: Type.Integer(),
  new_version: Type.String(),
  new_revision: Type.Integer(),
  base_status: Type.String({ description: 'present or not present' }),
  new_status: Type.String({ description: 'created, modified, deleted or unmodified' })
})
export type CollectionStatus = Static<typeof CollectionStatusSchema>

/**
 * How a staging treats what the buffer holds already: `rejectOnContents` (the default) refuses it unless the buffer is
 * empty, `append` unless the collection is in it already, `replace` resets the buffer to the committed documents first.
 */
export const BUFFER_MODES = ['append', 'replace', 'rejectOnContents'] as const
export type BufferMode = (typeof BUFFER_MODES)[number]
/** A buffer mode as the request named it: the mode, and its spelling (any letter case), which a refusal repeats. */
export interface BufferModeChoice { mode: BufferMode, spelled: string }
export const IngestQuerySchema = QuerySchema({
  buffermode: Type.Optional(Type.String({
    pattern: oneOfPattern(BUFFER_MODES, true),
    description: `${BUFFER_MODES.join(', ')} (any case); default rejectOnContents`,
    'x-invalid': {
      message: 'Invalid buffermode',
      reason: 'buffermode must be append, replace or rejectOnContents, got \'{value}\''
    } satisfies Wording
  })),
  'empty-collection': withDefault(
    SeedBooleanSchema('empty-collection', 'Stage the collection empty, to delete it at commit; the body is ignored'))
})

export const DocumentsQuerySchema = QuerySchema({
  version: withDefault(VersionNameSchema),
  'cleartext-secrets': withDefault(SeedBooleanSchema('cleartext-secrets', 'Secrets in cleartext (own policy rule)'))
})

export const CommitQuerySchema = QuerySchema({
  force: withDefault(SeedBooleanSchema('force', 'Commit despite validation failures')),
  dryrun: withDefault(SeedBooleanSchema('dryrun', 'Validate only, commit nothing')),
  // an extension: the seed's commit takes whatever the buffer holds when it runs
  'buffer-revision': Type.Optional(Type.String({
    pattern: '^[1-9]\\d{0,14}$',
    description: 'The buffer revision the caller examined (GET /configdocs new_revision, or a dry run given it): ' +
      'the commit or dry run is refused with 409 when the buffer is another revision; absent: whatever the buffer holds',
    'x-invalid': {
      message: 'Invalid buffer-revision parameter',
      reason: 'buffer-revision must be a revision id (a positive integer), got \'{value}\''
    } satisfies Wording
  }))
})

/** YAML documents, answered as text. */
export const YamlTextSchema = Type.String({ description: 'YAML documents (application/x-yaml)' })
