// The configdocs use cases built as createDeps builds them, over the fake store and validators (helpers/fakes.ts)
// and an in-memory database; closed when the test ends. For the rules of staging, committing and reading.
import { onTestFinished } from 'vitest'
import type { RequestContext } from '@slipway/common'
import { openSqlite } from '../../src/db/sqlite.ts'
import { createDatabaseLease } from '../../src/domain/database-lease.ts'
import { createStaging, createStagingRecovery } from '../../src/domain/configdocs/staging.ts'
import { createStage, type StageLimits } from '../../src/domain/configdocs/stage.ts'
import { createCommit } from '../../src/domain/configdocs/commit.ts'
import { createConfigdocsReads } from '../../src/domain/configdocs/reads.ts'
import type { IngestInput } from '../../src/domain/configdocs/stage.ts'
import { fakeStore, fakeValidators } from './fakes.ts'

/** A caller's context as the use cases read it: who, and the marker forwarded to the store. */
export const CTX = { user: 'admin', contextMarker: 'use-case-test', requestId: 'r1' } as RequestContext

/** A staging request's input: `body` in the given buffer mode. */
export const input = (body: string, mode: 'append' | 'replace' | 'rejectOnContents' = 'rejectOnContents'): IngestInput => ({
  body, bufferMode: { mode, spelled: mode }, emptyCollection: false, contentLength: Buffer.byteLength(body)
})

/** A one-document collection named `name`, its data `value`. */
export const collectionYaml = (name: string, value: string): string =>
  `---\nschema: example/Doc/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: ${name}\n  layeringDefinition: { abstract: false, layer: site }\ndata: ${value}\n`

export function configdocsUseCases (limits: StageLimits = {}) {
  const store = fakeStore()
  const validators = fakeValidators()
  const repos = openSqlite(':memory:')
  onTestFinished(async () => { await repos.close() })
  const lock = createDatabaseLease({ repos, leaseS: 60 })
  const journal = repos.stagingJournal
  const staging = createStaging({ store: store.client, journal, recoveryIntervalS: 5 })
  return {
    store,
    validators,
    repos,
    staging,
    stage: createStage({ store: store.client, staging, lock, ...limits }),
    commit: createCommit({ store: store.client, validators: validators.client, lock, staging }),
    reads: createConfigdocsReads({ store: store.client }),
    recoverStaging: createStagingRecovery({ journal, lock, staging })
  }
}
