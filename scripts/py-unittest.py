"""Runs unittest modules verbosely and ends with one line `BUX_RESULT {json}` holding exact counts
for scripts/test-all.mjs: passed, failed, skipped. A module or class whose setUp raised counts as one
failure (or one skip for SkipTest): unittest reports those outside "Ran N tests".

    python scripts/py-unittest.py tests.test_a tests.test_b     (cwd: python-shim-spec)
"""
import json
import sys
import unittest
from unittest.suite import _ErrorHolder  # what unittest reports for setUpModule/setUpClass outcomes


def main(names: list) -> int:
    sys.path.insert(0, '')
    suite = unittest.defaultTestLoader.loadTestsFromNames(names)
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stderr).run(suite)

    def holders(pairs):
        return sum(1 for test, _ in pairs if isinstance(test, _ErrorHolder))

    in_run_errors = len(result.errors) - holders(result.errors)
    in_run_skips = len(result.skipped) - holders(result.skipped)
    passed = result.testsRun - len(result.failures) - in_run_errors - in_run_skips - len(result.unexpectedSuccesses)
    counts = {
        'passed': max(0, passed),
        'failed': len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses),
        'skipped': len(result.skipped),
        'ran': result.testsRun,
        # Named so the summary at the end of `npm test` can say which ones, where a log is cut short.
        'failed_names': [str(test) for test, _ in result.failures + result.errors]
        + [str(test) for test in result.unexpectedSuccesses],
    }
    sys.stderr.flush()
    print('BUX_RESULT ' + json.dumps(counts), flush=True)
    return 0 if result.wasSuccessful() else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
