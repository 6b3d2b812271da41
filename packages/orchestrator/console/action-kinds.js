// The actions the orchestrator starts, as the New action form needs them: what each does, the parameters it takes,
// whether allow-intermediate-commits applies, and how a create request and its confirmation are made of the form's
// values. The orchestrator's own list (its action catalog) is the authority; a unit test holds the two together.

/**
 * `site`: a site action (tags the committed revision it ran on); `targets`: takes target_nodes (required);
 * `intermediate`: checked for commits no site action has used, which allow-intermediate-commits lets through;
 * `continueOnFail`: takes continue-on-fail; `release`: takes an optional release; `danger`: takes nodes down.
 */
const kind = (name, flags, does) => ({ name, ...flags, does })
const SITE = { site: true, intermediate: true, continueOnFail: true }
export const ACTION_KINDS = [
  kind('deploy_site', SITE, 'Deploys the whole site from the committed documents: the nodes are provisioned and deployed, then the software is installed.'),
  kind('update_site', SITE, 'Brings the site in line with the committed documents: new nodes are deployed and the software is updated.'),
  kind('update_software', SITE, 'Updates the software (the Armada releases) from the committed documents; the nodes are left as they are.'),
  kind('redeploy_server', { targets: true, continueOnFail: true, danger: true },
    'Destroys the chosen nodes and deploys them again from the committed documents; their workloads stop meanwhile.'),
  kind('relabel_nodes', { targets: true, continueOnFail: true }, 'Sets the Kubernetes labels of the chosen nodes to those of the committed documents.'),
  kind('test_site', { release: true }, 'Runs the Helm tests of the site\'s releases (one release if named); nothing on the site changes.')
]

export const kindOf = (name) => ACTION_KINDS.find((k) => k.name === name)

/**
 * The parameters a create sends, from the form's values `{ targets, continueOnFail, release }`: target_nodes as a
 * list of node names (the API takes a JSON list, or the comma-separated string the CLI sends), continue-on-fail as
 * the string 'true' the orchestrator compares with, only when asked for; a blank release is left out.
 */
export function parametersOf (kind, values) {
  const parameters = {}
  if (kind.targets) parameters.target_nodes = [...values.targets]
  if (kind.continueOnFail && values.continueOnFail === true) parameters['continue-on-fail'] = 'true'
  const release = (values.release ?? '').trim()
  if (kind.release && release !== '') parameters.release = release
  return parameters
}

/** What is missing before the request can go: a targeted action needs at least one node. */
export function problemOf (kind, values) {
  if (kind.targets && values.targets.length === 0) return `Choose at least one node: ${kind.name} acts on the nodes you choose.`
  return null
}

/** The create's path: allow-intermediate-commits only for the actions it concerns, only when asked for. */
export const createPath = (kind, allowIntermediate) => kind.intermediate && allowIntermediate ? '/actions?allow-intermediate-commits=true' : '/actions'

/** `target_nodes: n1, n2`, `continue-on-fail: true`: each parameter in a line; none, no line. */
export function parameterLines (parameters) {
  return Object.entries(parameters ?? {}).map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : JSON.stringify(value)}`)
}

/** The confirmation of a create: what will happen, in the operator's words, and what is sent. */
export function createConfirmation (kind, parameters, allowIntermediate) {
  const checks = kind.name === 'test_site'
    ? 'The engine starts the test_site workflow at once.'
    : `The orchestrator first checks the committed documents${kind.intermediate ? (allowIntermediate ? ' (commits no site action has used are allowed)' : ' and that no commit since the last site action went unused') : ''} and that no other site action runs; if a check fails, nothing starts and you see why.`
  const nodes = kind.targets ? ` Nodes: ${parameters.target_nodes.join(', ')}.` : ''
  const lines = parameterLines(parameters)
  if (kind.intermediate && allowIntermediate) lines.push('allow-intermediate-commits: true')
  return {
    title: `Create ${kind.name}?`,
    text: `${kind.does}${nodes} ${checks}`,
    items: lines.length === 0 ? ['No parameters.'] : lines,
    confirmLabel: `Create ${kind.name}`,
    danger: kind.danger === true
  }
}
