// createDeps(config): the one place where the state file, the nodes file, the store client and the domain are wired.
import { createStoreClient } from './clients/store.ts'
import type { Config } from './config.ts'
import { createStateFile } from './db/state-file.ts'
import { createFaults } from './domain/faults.ts'
import { createInventory } from './domain/inventory.ts'
import { createSite, type SiteLog } from './domain/site.ts'
import { readNodesFile } from './nodes-file.ts'
import type { AppDeps } from './app.ts'

export function createDeps (config: Config, options: { log?: SiteLog, logger?: boolean } = {}): AppDeps {
  const stateFile = config.SITE_DATA_DIR === '' ? undefined : createStateFile(config.SITE_DATA_DIR)
  const inventory = createInventory({ initial: stateFile?.load(), persist: stateFile?.save })
  // persisted nodes keep their state; the file only adds nodes the site does not know yet
  if (config.SITE_NODES_FILE !== '') inventory.addMissing(readNodesFile(config.SITE_NODES_FILE))
  const design = config.STORE_URL === ''
    ? undefined
    : createStoreClient({ baseUrl: config.STORE_URL, timeoutMs: config.STORE_TIMEOUT_MS, serviceToken: config.SERVICE_TOKEN })
  const silent: SiteLog = { warn: () => {}, info: () => {} }
  return {
    site: createSite({ inventory, design, log: options.log ?? silent }),
    faults: createFaults(config.SITE_FAULT === 'error' ? { mode: 'error', status: config.SITE_FAULT_STATUS } : { mode: config.SITE_FAULT }),
    authTokens: config.SITE_AUTH_TOKENS.split(',').map((t) => t.trim()).filter((t) => t !== ''),
    logger: options.logger,
    logLevel: config.LOG_LEVEL
  }
}
