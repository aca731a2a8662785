"""The shim's tests. Set here, before any test module imports browser_use (some import the shim,
and through it browser_use, before tests.harness): browser_use's telemetry must never call out
from a test machine (CI reaches only PyPI and npm; posthog retries would slow every run)."""
import os

os.environ.setdefault('ANONYMIZED_TELEMETRY', 'false')
