"""The package's one retry pacing (backoff.py), without a bridge: the waits double from the first
one up to the cap, a reset starts again, and sleep() waits exactly the wait it takes."""
import asyncio
import itertools
import unittest
from unittest import mock

from browser_use_ext.backoff import Backoff
from tests.harness import SHIM_DIR  # noqa: F401  (puts the shim on sys.path)


class BackoffPacing(unittest.TestCase):
    def test_doubles_up_to_the_cap(self):
        self.assertEqual(list(itertools.islice(Backoff(0.1, 2.0), 7)), [0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0])
        self.assertEqual(list(itertools.islice(Backoff(1.0, 30.0), 7)), [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0])

    def test_reset_starts_again_from_the_first_wait(self):
        b = Backoff(1.0, 30.0)
        self.assertEqual([b.take(), b.take(), b.take()], [1.0, 2.0, 4.0])
        self.assertEqual(b.next_s, 8.0)
        b.reset()
        self.assertEqual([b.take(), b.take()], [1.0, 2.0])

    def test_sleep_waits_the_wait_it_takes(self):
        b = Backoff(0.5, 1.0)
        waits = []

        async def fake_sleep(s):
            waits.append(s)

        with mock.patch('browser_use_ext.backoff.asyncio.sleep', fake_sleep):
            for _ in range(3):
                asyncio.run(b.sleep())
        self.assertEqual(waits, [0.5, 1.0, 1.0])

    def test_refuses_a_pacing_that_would_not_wait(self):
        for initial, cap in ((0, 1.0), (-1.0, 1.0), (2.0, 1.0)):
            with self.assertRaises(ValueError):
                Backoff(initial, cap)


if __name__ == '__main__':
    unittest.main()
