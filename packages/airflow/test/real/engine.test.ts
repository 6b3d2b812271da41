// The orchestrator and the real Apache Airflow under load and trouble, through the orchestrator's API: the engine
// watch held to its staleness bound and its engine calls counted, pause / unpause / stop on a running action, two
// triggers at once and a trigger while the scheduler is down, a new JWT secret, Airflow down and back. One stack
// for the file; the scenarios that restart Airflow come last.
import { afterAll, it } from 'vitest'
import { onRealAirflow } from './helpers/airflow-install.ts'
import { printFigures, recordFigure, seconds } from './helpers/figures.ts'
import { realStack } from './helpers/real-stack.ts'
import { controlScenario } from './scenarios/control.ts'
import { outagesScenario } from './scenarios/outages.ts'
import { triggersScenario } from './scenarios/triggers.ts'
import { watchScenario } from './scenarios/watch.ts'

const real = realStack('engine')

afterAll(() => { printFigures('engine') })

onRealAirflow('the engine under the orchestrator', () => {
  it('stages and commits the example site', async () => {
    recordFigure('stack start', seconds(real.startMs))
    await real.commitSite()
  })
  watchScenario(real)
  controlScenario(real)
  triggersScenario(real)
  outagesScenario(real)
})
