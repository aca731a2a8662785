"""serve keeps browser_use's telemetry off unless the person turns it on, and says so once: no posthog
client is made and nothing is captured (offline its retries only add errors to the log)."""
import json
import os
import subprocess
import sys
import unittest

from browser_use_ext import telemetry
from tests.harness import SHIM_DIR

# Run in a fresh interpreter: a posthog spy is in place before browser_use is first imported, then serve's
# start-up choice, then what a task makes (a Controller's registry and an Agent's telemetry events).
PROBE = r'''
import json, sys
calls = []
try:
    import posthog
except ImportError:
    print(json.dumps({'skip': 'browser_use is not installed'})); sys.exit(0)

class Spy:
    def __init__(self, *a, **k): calls.append('Posthog()')
    def capture(self, *a, **k): calls.append('capture')
    def flush(self, *a, **k): calls.append('flush')

posthog.Posthog = Spy
# As the console script starts: the package (and browser_use with it) is imported before main() runs.
sys.argv = ['/usr/local/bin/browser-use-ext-serve', *sys.argv[1:]]
from browser_use_ext import serve, telemetry
args = serve.build_parser().parse_args(['serve', *sys.argv[1:]])
line = telemetry.decide(args.telemetry)
from browser_use_ext import ExtensionController
ExtensionController()
from browser_use.telemetry.service import ProductTelemetry
from browser_use.telemetry.views import ControllerRegisteredFunctionsTelemetryEvent
ProductTelemetry().capture(ControllerRegisteredFunctionsTelemetryEvent(registered_functions=[]))
print(json.dumps({'calls': calls, 'line': line}))
'''


def start_probe(*flags: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != telemetry.ENV}
    return subprocess.Popen([sys.executable, '-c', PROBE, *flags], cwd=str(SHIM_DIR), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def result_of(proc: subprocess.Popen) -> dict:
    out, err = proc.communicate(timeout=120)
    if proc.returncode != 0:
        raise AssertionError(err[-3000:])
    return json.loads(out.strip().splitlines()[-1])


class TelemetryChoice(unittest.TestCase):
    # Both fresh interpreters (each imports browser_use, seconds each) start at once, side by side.
    probes: dict = {}

    @classmethod
    def setUpClass(cls) -> None:
        cls.probes = {'default': start_probe(), 'flag': start_probe('--telemetry')}

    @classmethod
    def tearDownClass(cls) -> None:
        for proc in cls.probes.values():
            if proc.poll() is None:
                proc.kill()
                proc.communicate()

    def test_off_unless_the_person_turns_it_on(self):
        env: dict = {}
        self.assertIn('off', telemetry.choose(False, env))
        self.assertEqual(env, {telemetry.ENV: 'false'})
        env = {telemetry.ENV: 'true'}
        self.assertIn('on (ANONYMIZED_TELEMETRY=true in your environment)', telemetry.choose(False, env))
        self.assertEqual(env[telemetry.ENV], 'true', "the person's own setting stands")
        env = {}
        self.assertIn('on (--telemetry)', telemetry.choose(True, env))
        self.assertEqual(env[telemetry.ENV], 'true')

    def test_no_posthog_client_nor_event_by_default(self):
        got = result_of(self.probes['default'])
        if 'skip' in got:
            self.skipTest(got['skip'])
        self.assertEqual(got['calls'], [], 'no posthog client is made, nothing is captured')
        self.assertIn('off', got['line'])

    def test_only_a_serve_process_decides_at_import(self):
        self.assertTrue(telemetry.is_serve(['-m', 'serve', '--llm', 'openai']))
        self.assertTrue(telemetry.is_serve(['/home/p/.local/bin/browser-use-ext-serve']))
        self.assertFalse(telemetry.is_serve(['my_agent.py']))
        self.assertFalse(telemetry.is_serve(['-m', 'my_agent']))

    def test_the_flag_turns_it_on(self):
        got = result_of(self.probes['flag'])
        if 'skip' in got:
            self.skipTest(got['skip'])
        self.assertIn('Posthog()', got['calls'])


if __name__ == '__main__':
    unittest.main()
