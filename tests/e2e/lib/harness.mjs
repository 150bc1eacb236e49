// The end-to-end harness: starts the fake upstream and the real engine (`aile serve`) on port 0 with a
// temporary data directory and a generated configuration, and stops both at the end.
//
// Binaries: AILE_BIN and FAKE_UPSTREAM_BIN (CTest sets both). Run by hand, it falls back to the
// default build directory of the repository (build/app/aile, build/tests/aile-fake-upstream).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO_DIR = path.resolve(E2E_DIR, '..', '..');

export const LOCAL_KEY = 'sk-aile-e2e-0123456789abcdef';
export const ADMIN_TOKEN = 'e2e-admin';
export const OPENAI_HANDLE = 'L00000000000000a1';
export const CLAUDE_HANDLE = 'L00000000000000c1';

const START_TIMEOUT_MS = 20000;
const STOP_TIMEOUT_MS = 10000;

function binary(envName, fallback) {
  const fromEnv = process.env[envName];
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`${envName}=${fromEnv} does not exist; build it first`);
    return fromEnv;
  }
  const candidate = path.join(REPO_DIR, fallback);
  if (existsSync(candidate)) return candidate;
  throw new Error(`set ${envName} to the built binary (CTest does: ctest -L e2e); ${fallback} is not built`);
}

/** The `aile` binary the stack runs (for `aile connect …` from a test). */
export function aileBinary() {
  return binary('AILE_BIN', 'build/app/aile');
}

/** A child process that prints `listening on 127.0.0.1:<port>` once it accepts connections. */
class Daemon {
  constructor(name, bin, args, env) {
    this.name = name;
    this.output = '';
    this.exited = null;
    this.child = spawn(bin, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.exitPromise = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.exited = { code, signal };
        resolve(this.exited);
      });
      this.child.on('error', (err) => {
        this.output += `\n[spawn error] ${err.message}\n`;
        this.exited = { code: -1, signal: null, error: err };
        resolve(this.exited);
      });
    });
    const keep = (chunk) => {
      this.output += chunk.toString();
      if (this.output.length > 200000) this.output = this.output.slice(-100000);
    };
    this.child.stdout.on('data', keep);
    this.child.stderr.on('data', keep);
  }

  /** Resolves with the port printed on `listening on 127.0.0.1:<port>`. */
  port() {
    return new Promise((resolve, reject) => {
      const re = /^listening on 127\.0\.0\.1:(\d+)\s*$/m;
      let timer;
      const check = () => {
        const m = re.exec(this.output);
        if (m) {
          cleanup();
          resolve(Number(m[1]));
        }
      };
      const onExit = () => {
        cleanup();
        reject(new Error(`${this.name} exited (${JSON.stringify(this.exited)}) before listening:\n${this.output}`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        this.child.stdout.off('data', check);
        this.child.off('exit', onExit);
      };
      timer = setTimeout(() => {
        cleanup();
        reject(new Error(`${this.name} printed no "listening on" line in ${START_TIMEOUT_MS} ms:\n${this.output}`));
      }, START_TIMEOUT_MS);
      this.child.stdout.on('data', check);
      this.child.on('exit', onExit);
      check();
      if (this.exited) onExit();
    });
  }

  /** SIGTERM, then SIGKILL if it has not exited in time. Resolves with how it exited. */
  async stop() {
    if (this.exited) return this.exited;
    this.child.kill('SIGTERM');
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve(null), STOP_TIMEOUT_MS);
    });
    const result = await Promise.race([this.exitPromise, timeout]);
    clearTimeout(timer);
    if (result) return result;
    this.child.kill('SIGKILL');
    const killed = await this.exitPromise;
    return { ...killed, forced: true };
  }
}

export function makeConfig(upstreamPort, { extraSharers = [], routes = undefined } = {}) {
  const baseUrl = `http://127.0.0.1:${upstreamPort}`;
  return {
    adminToken: ADMIN_TOKEN,
    sharers: [
      {
        handle: OPENAI_HANDLE, name: 'fake-openai', provider: 'openai', baseUrl,
        credential: 'env:FAKE_UPSTREAM_KEY', models: ['gpt-5.2'], tested: ['gpt-5.2'],
      },
      {
        handle: CLAUDE_HANDLE, name: 'fake-claude', provider: 'claude', baseUrl,
        credential: 'env:FAKE_UPSTREAM_KEY',
        models: ['claude-sonnet-5', 'claude-opus-4-8', 'claude-haiku-4-5-20251001'],
        tested: ['claude-sonnet-5', 'claude-opus-4-8', 'claude-haiku-4-5-20251001'],
      },
      // A function gets the fake upstream's base URL (a sharer under one of its paths).
      ...extraSharers.map((s) => (typeof s === 'function' ? s(baseUrl) : { baseUrl, credential: 'env:FAKE_UPSTREAM_KEY', ...s })),
    ],
    keys: [{ name: 'e2e', key: LOCAL_KEY, ...(routes ? { routes } : {}) }],
  };
}

/**
 * Starts the fake upstream and the engine (options.extraSharers: more sharers on the fake upstream;
 * options.routes: the e2e key's named routes). Returns the stack:
 *   port, baseUrl (http://127.0.0.1:PORT), openaiBaseUrl (…/v1), key, adminToken,
 *   traces(), waitForTrace(id), logs(), stop().
 */
export async function startStack(options = {}) {
  const aileBin = binary('AILE_BIN', 'build/app/aile');
  const upstreamBin = binary('FAKE_UPSTREAM_BIN', 'build/tests/aile-fake-upstream');
  const tmp = mkdtempSync(path.join(tmpdir(), 'aile-e2e-'));
  const daemons = [];
  const stack = {
    tmp,
    key: LOCAL_KEY,
    adminToken: ADMIN_TOKEN,
    logs: () => daemons.map((d) => `--- ${d.name} ---\n${d.output}`).join('\n'),
    stop: async () => {
      // The engine first (it holds connections to the upstream), then the upstream.
      const results = {};
      for (const d of [...daemons].reverse()) results[d.name] = await d.stop();
      rmSync(tmp, { recursive: true, force: true });
      return results;
    },
  };
  try {
    const upstream = new Daemon('aile-fake-upstream', upstreamBin, ['--port', '0'], { ...process.env });
    daemons.push(upstream);
    stack.upstreamPort = await upstream.port();

    const configPath = path.join(tmp, 'config.jsonc');
    writeFileSync(configPath, '// generated by tests/e2e/lib/harness.mjs\n' + JSON.stringify(makeConfig(stack.upstreamPort, options), null, 2) + '\n');
    const dataDir = path.join(tmp, 'data');
    const engine = new Daemon(
      'aile serve',
      aileBin,
      ['serve', '--data-dir', dataDir, '--listen', '127.0.0.1:0', '--config', configPath],
      { ...process.env, FAKE_UPSTREAM_KEY: 'fake-upstream-secret', HOME: tmp, QT_QPA_PLATFORM: 'offscreen' },
    );
    daemons.push(engine);
    stack.engine = engine;
    stack.port = await engine.port();
  } catch (err) {
    await stack.stop();
    throw err;
  }
  stack.baseUrl = `http://127.0.0.1:${stack.port}`;
  stack.openaiBaseUrl = `${stack.baseUrl}/v1`;

  /** GET /keys/usage/requests: the traces, newest first. */
  stack.traces = async (query = '') => {
    const res = await fetch(`${stack.baseUrl}/keys/usage/requests${query}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET /keys/usage/requests: ${res.status} ${text}`);
    const body = JSON.parse(text);
    if (!Array.isArray(body.data)) throw new Error(`GET /keys/usage/requests: no data array: ${text}`);
    return body.data;
  };

  /**
   * The trace with this id (the x-aile-request-id header). The engine answers /keys/usage/requests
   * once the trace writer has committed, but a streamed answer's trace is finished a moment after the
   * client read its last byte, so this polls briefly before failing.
   */
  stack.waitForTrace = async (id, { timeoutMs = 5000 } = {}) => {
    if (!id) throw new Error('no x-aile-request-id to look up');
    const deadline = Date.now() + timeoutMs;
    let last = [];
    for (;;) {
      last = await stack.traces('?limit=1000');
      const found = last.find((t) => t.id === id);
      if (found) return found;
      if (Date.now() > deadline) {
        throw new Error(`trace ${id} not in GET /keys/usage/requests after ${timeoutMs} ms; ids there: ${last.map((t) => t.id).join(', ')}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return stack;
}
