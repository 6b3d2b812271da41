// Runs the step runner alone: `node packages/steps/src/runner/server.ts` (HOST, PORT, RUNNER_* and the peers'
// variables). A bad variable or a busy port is one line naming the variable, exit 2.
import { onShutdown, runService } from '@slipway/common'
import { loadRunnerConfig } from './config.ts'
import { startRunner } from './start.ts'

await runService('step-runner', async () => {
  const runner = await startRunner(loadRunnerConfig())
  onShutdown([runner], { log: (message) => runner.app.log.info(message) })
})
