// createDeps(config): the one place where the state file, the nodes file, the clients and the domain are wired.
import { createArmadaDesignReader } from './clients/armada-design.ts'
import { createBootstrapClient } from './clients/bootstrap.ts'
import { createDesignClient } from './clients/design.ts'
import { createStoreClient } from './clients/store.ts'
import { targetUrl, type Config } from './config.ts'
import { createArmadaStateFile, createStateFile } from './db/state-file.ts'
import { createConfigMaps, type ConfigMaps } from './domain/configmaps.ts'
import { createArmada } from './domain/armada/armada.ts'
import { createArmadaFaults, createReleaseStore, parseFaultList } from './domain/armada/releases.ts'
import { createFaults } from './domain/faults.ts'
import { createPods } from './domain/pods.ts'
import { createTaskFaults, splitList } from './domain/drydock/task-faults.ts'
import { createDrydockTasks } from './domain/drydock/tasks.ts'
import { createInventory } from './domain/inventory.ts'
import { createSite, type SiteLog } from './domain/site.ts'
import { readNodesFile } from './nodes-file.ts'
import type { AppDeps } from './app.ts'
import type { SiteState } from './schemas/nodes.ts'

export function createDeps (config: Config, options: { log?: SiteLog, logger?: boolean } = {}): AppDeps {
  const stateFile = config.SITE_DATA_DIR === '' ? undefined : createStateFile(config.SITE_DATA_DIR)
  const initial = stateFile?.load()
  const holder: { configMaps?: ConfigMaps } = {}
  // one state file: the inventory's nodes and the ConfigMaps, saved on any change to either
  const persist = stateFile === undefined
    ? undefined
    : (state: SiteState) => { stateFile.save({ ...state, configmaps: holder.configMaps?.all() ?? initial?.configmaps ?? [] }) }
  const inventory = createInventory({ initial, persist })
  const configMaps = createConfigMaps({ inventory, initial: initial?.configmaps })
  holder.configMaps = configMaps
  const pods = createPods({ inventory, terminationMs: config.SITE_POD_TERMINATION_MS, refused: config.SITE_EVICTION_REFUSED })
  // persisted nodes keep their state; the file only adds nodes the site does not know yet
  if (config.SITE_NODES_FILE !== '') inventory.addMissing(readNodesFile(config.SITE_NODES_FILE))
  const storeUrl = targetUrl(config.STORE_URL)
  const bootstrapUrl = targetUrl(config.BOOTSTRAP_URL)
  const design = storeUrl === null
    ? undefined
    : createStoreClient({ baseUrl: storeUrl, timeoutMs: config.STORE_TIMEOUT_MS, serviceToken: config.SERVICE_TOKEN })
  const outbound = (baseUrl: string) => ({ baseUrl, timeoutMs: config.BOOTSTRAP_TIMEOUT_MS, serviceToken: config.SERVICE_TOKEN })
  const armadaState = config.SITE_DATA_DIR === '' ? undefined : createArmadaStateFile(config.SITE_DATA_DIR)
  const armada = createArmada({
    design: createArmadaDesignReader({ timeoutMs: config.ARMADA_TIMEOUT_MS, storeUrl, serviceToken: config.SERVICE_TOKEN }),
    releases: createReleaseStore({ initial: armadaState?.load(), persist: armadaState?.save }),
    faults: createArmadaFaults({
      fail_apply: parseFaultList(config.ARMADA_FAIL_APPLY),
      fail_tests: parseFaultList(config.ARMADA_FAIL_TESTS)
    })
  })
  const silent: SiteLog = { warn: () => {}, info: () => {} }
  const log = options.log ?? silent
  const site = createSite({ inventory, design, log })
  const bootstrap = bootstrapUrl === null ? null : createBootstrapClient(outbound(bootstrapUrl))
  const fetchDesign = createDesignClient({ timeoutMs: config.SITE_DESIGN_TIMEOUT_MS, serviceToken: config.SERVICE_TOKEN })
  const taskFaults = createTaskFaults({ failNodes: splitList(config.SITE_FAIL_NODES), stuckTasks: splitList(config.SITE_STUCK_TASKS) })
  return {
    site,
    kube: { pods, configMaps },
    armada,
    drydock: {
      tasks: createDrydockTasks({ site, fetchDesign, bootstrap, faults: taskFaults, phaseMs: config.SITE_TASK_MS, log }),
      fetchDesign,
      taskFaults
    },
    faults: createFaults(config.SITE_FAULT === 'error' ? { mode: 'error', status: config.SITE_FAULT_STATUS } : { mode: config.SITE_FAULT }),
    authTokens: config.SITE_AUTH_TOKENS.split(',').map((t) => t.trim()).filter((t) => t !== ''),
    logger: options.logger,
    logLevel: config.LOG_LEVEL
  }
}
