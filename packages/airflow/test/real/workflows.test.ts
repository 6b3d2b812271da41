// Slipway's site workflows on a real Apache Airflow, driven through the orchestrator's API as a user drives them:
// deploy_site to Complete with a retried step, one step and its logs, the workflow reads, the other five
// workflows (the targeted ones touching only their node), and steps that fail for good; the same deploy_site on
// stub-engine for comparison. One real stack for the file.
import { afterAll, it } from 'vitest'
import { onRealAirflow } from './helpers/airflow-install.ts'
import { printFigures, recordFigure, seconds } from './helpers/figures.ts'
import { realStack } from './helpers/real-stack.ts'
import { deployScenario, stepScenario, type Deployed } from './scenarios/deploy.ts'
import { failuresScenario } from './scenarios/failures.ts'
import { siteActionsScenario } from './scenarios/site-actions.ts'
import { standInScenario } from './scenarios/stand-in.ts'
import { workflowReadsScenario } from './scenarios/workflow-reads.ts'

const real = realStack('workflows')
let deployed: Deployed | undefined
const deployedSite = (): Deployed => {
  if (deployed === undefined) throw new Error('deploy_site did not finish: see the test before')
  return deployed
}

afterAll(() => { printFigures('workflows') })

onRealAirflow('site workflows through the orchestrator', () => {
  it('stages and commits the example site', async () => {
    recordFigure('stack start', seconds(real.startMs))
    recordFigure('Airflow RSS', real.airflow.memory().map((m) => `${m.process} ${m.rssMiB.toFixed(0)} MiB (${m.processes} processes)`).join(', '))
    await real.commitSite()
  })
  deployScenario(real, (d) => { deployed = d })
  stepScenario(real, deployedSite)
  workflowReadsScenario(real, deployedSite)
  siteActionsScenario(real)
  failuresScenario(real)
  standInScenario()
})
