import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository's own agents as command lines for the kit, runnable from any folder. */
const root = fileURLToPath(new URL('../../', import.meta.url));
const tsxLoader = new URL('node_modules/tsx/dist/loader.mjs', `file://${root}`).href;

/** The TypeScript SDK's runner (tools/conformance/sdk-agent.ts) on this Node, the SDK from its sources. */
export const SDK_AGENT = `"${process.execPath}" --import "${tsxLoader}" --conditions=source "${root}tools/conformance/sdk-agent.ts"`;

/** The simulator's bot (`npm run simulate:agent`): the SDK with the simulated world, commands and log. */
export const SIMULATOR_AGENT = `"${process.execPath}" --import "${tsxLoader}" --conditions=source "${root}apps/bot-agent/src/simulate-agent.ts"`;

/**
 * The Python reference agent on Debian's Python: its packages are Debian's, which a pyenv or venv
 * `python3` first on the PATH does not see.
 */
export const PYTHON_AGENT = `/usr/bin/python3 "${root}agents/python/bot_agent.py"`;

/** The Debian packages the Python agent needs, and the line that installs them. */
const PYTHON_PACKAGES = ['python3-socketio', 'python3-websocket', 'python3-requests', 'python3-cryptography'];
export const PYTHON_INSTALL_LINE = `sudo apt-get install -y ${PYTHON_PACKAGES.join(' ')}`;

/** The Python modules the agent imports that are missing here (none when it can run). */
export function missingPythonModules(): string[] {
  const modules = ['socketio', 'websocket', 'requests', 'cryptography'];
  const probe = `import importlib.util as u; print(",".join(m for m in ${JSON.stringify(modules)} if u.find_spec(m) is None))`;
  const result = spawnSync('/usr/bin/python3', ['-c', probe], { encoding: 'utf8' });
  if (result.status !== 0) return ['python3'];
  return result.stdout.trim().split(',').filter(Boolean);
}
