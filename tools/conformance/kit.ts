import {
  type ConformanceBench,
  createKitOwner,
  type RunningAgent,
  startAgent,
  startConformanceBench,
} from './bench.ts';
import { type ConformanceScenario, SCENARIOS } from './scenarios.ts';

export interface ScenarioOutcome {
  id: string;
  title: string;
  passed: boolean;
  /** Why it failed, and the end of what the agent printed. */
  detail?: string;
  ms: number;
}

export interface ConformanceOptions {
  /** The agent's command line, run through `sh -c` with the contract's environment. */
  agent: string;
  /** Scenario ids to play (default: all, in order). */
  only?: readonly string[];
  /** Told as each scenario ends (the CLI prints it). */
  onOutcome?: (outcome: ScenarioOutcome) => void;
  /** A server already started (`startConformanceBench`), kept open; default: one for this run. */
  bench?: ConformanceBench;
}

/**
 * Plays the protocol's scenarios at an agent against a real server started for this run
 * (apps/bot-agent/README.md, "Conformance kit"), and answers which pass.
 */
export async function runConformance(options: ConformanceOptions): Promise<ScenarioOutcome[]> {
  const scenarios = SCENARIOS.filter((scenario) => !options.only || options.only.includes(scenario.id));
  const bench = options.bench ?? (await startConformanceBench());
  const outcomes: ScenarioOutcome[] = [];
  try {
    for (const scenario of scenarios) {
      const outcome = await play(bench, scenario, options.agent);
      outcomes.push(outcome);
      options.onOutcome?.(outcome);
    }
  } finally {
    if (!options.bench) await bench.close();
  }
  return outcomes;
}

async function play(bench: ConformanceBench, scenario: ConformanceScenario, command: string) {
  const agents: RunningAgent[] = [];
  const startedAt = Date.now();
  const start = async (platform?: { url: string }) => {
    const owner = await createKitOwner(bench);
    const agent = startAgent(command, owner, {
      url: platform?.url ?? bench.server.url,
      trustRoot: bench.server.trustRoot,
    });
    agents.push(agent);
    return agent;
  };
  try {
    await scenario.run({ bench, start });
    return { id: scenario.id, title: scenario.title, passed: true, ms: Date.now() - startedAt };
  } catch (error) {
    const said = agents.map((agent) => agent.output().trim().split('\n').slice(-8).join('\n')).join('\n');
    const detail = `${(error as Error).message}${said ? `\n  l’agent a écrit :\n${indent(said)}` : ''}`;
    return { id: scenario.id, title: scenario.title, passed: false, detail, ms: Date.now() - startedAt };
  } finally {
    await Promise.all(agents.map((agent) => agent.stop()));
  }
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');

/** One line per scenario, then the count: what the CLI prints. */
export function formatOutcome(outcome: ScenarioOutcome): string {
  const mark = outcome.passed ? '✔' : '✘';
  const time = `${(outcome.ms / 1000).toFixed(1)} s`;
  return `${mark} ${outcome.id} — ${outcome.title} (${time})${outcome.detail ? `\n  ${outcome.detail}` : ''}`;
}

export const SCENARIO_IDS = SCENARIOS.map((scenario) => scenario.id);
