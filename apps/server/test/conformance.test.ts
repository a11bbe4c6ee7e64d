import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConformanceBench, startConformanceBench } from '../../../tools/conformance/bench.ts';
import { runConformance, SCENARIO_IDS, type ScenarioOutcome } from '../../../tools/conformance/kit.ts';
import {
  missingPythonModules,
  PYTHON_AGENT,
  PYTHON_INSTALL_LINE,
  SDK_AGENT,
  SIMULATOR_AGENT,
} from '../../../tools/conformance/reference-agents.ts';

/**
 * The conformance kit (tools/conformance, issue 46.10) plays the protocol's scenarios at the
 * repository's agents against one real server, reading each outcome through the server (what the
 * owner sees, a staff command's result, the journal, a restart survived, the fake platform refused):
 * the TypeScript SDK's runner, the simulator's bot, and the Python reference agent written from docs/
 * (issue 46.9). Each plays a version of its own, so that one server holds every run's builds.
 */

let bench: ConformanceBench;
const outcomes = new Map<string, ScenarioOutcome[]>();

beforeAll(async () => {
  bench = await startConformanceBench();
  outcomes.set('sdk', await runConformance({ agent: `BOT_VERSION=1.0.0 ${SDK_AGENT}`, bench }));
  outcomes.set('simulator', await runConformance({ agent: `BOT_VERSION=1.0.2 ${SIMULATOR_AGENT}`, bench }));
  if (missingPythonModules().length === 0)
    outcomes.set('python', await runConformance({ agent: `BOT_VERSION=1.0.1 ${PYTHON_AGENT}`, bench }));
}, 360_000);
afterAll(() => bench?.close());

function expectPassed(agent: string, id: string): void {
  const outcome = outcomes.get(agent)?.find((entry) => entry.id === id);
  expect(outcome, `scénario non joué (${PYTHON_INSTALL_LINE} ?)`).toBeDefined();
  expect(outcome?.detail ?? '').toBe('');
  expect(outcome?.passed).toBe(true);
}

describe('the TypeScript SDK', () => {
  it.each(SCENARIO_IDS)('passes the scenario %s', (id) => expectPassed('sdk', id));
});

describe('the simulator’s bot (npm run simulate:agent)', () => {
  it.each(SCENARIO_IDS)('passes the scenario %s', (id) => expectPassed('simulator', id));
});

describe('the Python reference agent (agents/python)', () => {
  it('runs on Debian’s Python packages (fails, never skips, when one is missing)', () => {
    const missing = missingPythonModules();
    expect(missing, `modules Python manquants (${missing.join(', ')}) : ${PYTHON_INSTALL_LINE}`).toEqual([]);
  });

  it.each(SCENARIO_IDS)('passes the scenario %s', (id) => expectPassed('python', id));
});

describe('the kit', () => {
  it('fails an agent that exits at once, saying what the platform did not see', async () => {
    const [outcome] = await runConformance({ agent: 'exit 0', only: ['outdated-at-start'], bench });
    expect(outcome).toMatchObject({ id: 'outdated-at-start', passed: false });
    expect(outcome?.detail).toContain('426');
  });
});
