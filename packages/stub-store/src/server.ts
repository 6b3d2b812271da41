// Runs the store alone: reads the environment, listens, and shuts down cleanly on SIGTERM/SIGINT.
import { onShutdown } from '@slipway/common'
import { loadConfig } from './config.ts'
import { startStore } from './start.ts'

const config = loadConfig()
const store = await startStore(config)
process.stdout.write(`stub-store listening on ${store.url}\n`)
onShutdown([store])
