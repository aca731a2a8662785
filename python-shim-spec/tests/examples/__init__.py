"""browser_use 0.1.40's own examples (its sdist's examples/ folder), run on both sides in one test:
our shim (the import rewrite a person applies, on the harness bridge + extension in real Chromium)
and browser_use's own Playwright (unchanged example, on /usr/bin/chromium), with one scripted
OpenAI-compatible model and loopback fixture sites. test_real_agent_examples.py drives it.

Choices, written down once:

- Source: ``pip download --no-deps --no-binary browser-use browser-use==0.1.40`` with the running venv's
  pip, cached in ``.venvs/_examples-sdist/`` (gitignored, like the venvs). 0.1.48's sdist (cached
  there too) ships no examples, which the suite checks; the same 0.1.40 examples also run in the 0.1.48
  venv where their API still applies. The files only the 0.1.48 git tag has are named in tag048.py.
- The person's rewrite is rewrite.py (imports + Agent arguments, nothing else). Everything else
  that changes between the published file and what runs is test-only and listed here:
    1. real URLs and host names in the example text -> the fixture site on loopback that reproduces
       what the task needs (scenarios.py ``urls``; both sides get the same text);
    2. ``input()`` answered from the scenario (``inputs``); ``sys.argv`` is the file alone;
    3. the model: ``ChatOpenAI`` reaches the scripted server through OPENAI_BASE_URL / OPENAI_API_BASE;
       ``ChatGoogleGenerativeAI`` and ``AzureChatOpenAI`` are replaced by ``ChatOpenAI(model='gpt-4o')``
       (the model class is not what is tested; their API keys get placeholder values);
    4. ``pyperclip`` is an in-memory clipboard (CI has no desktop clipboard);
    5. Playwright side only: the browser is /usr/bin/chromium, headless, launched by Playwright
       (``chrome_instance_path``, ``cdp_url``, ``wss_url``, ``headless=False`` neutralised: see
       compat_real.py for why the fixed debugging port is avoided), and the lazy start of browser_use's
       Playwright browser is serialised (agents starting at once would each launch a Chromium);
    6. each example runs in its own empty working directory, with HOME pointing there too (the
       download example saves to ~/downloads);
    7. our side only: before each example the harness Chromium is left with one blank tab (the
       extension lists every tab of the person's Chrome; a Playwright browser starts with one);
    8. Playwright side only: an example that should run the same on both sides and did not finish
       there in its time runs there once more, alone (browser_use's own Playwright sometimes never
       finishes step 1 of an agent running in a thread of its own, as pause_agent's does).
    9. ``yagmail`` is a double that records the mail instead of sending it (notification.py);
    10. an endless ``input()`` loop (multiple_agents_same_browser.py) is answered as a person types,
        each task once the previous agent finished, and ended with Ctrl-C (SIGINT to the process);
    11. a row whose reference side cannot run on this machine (``reference_env``: Playwright's ffmpeg
        is absent, parallel_agents.py records video) runs on our side only; the test checks the reason.
- Our side is one process that runs every example in turn (runpy, run_name='__main__'); the
  Playwright side is two such processes (half the examples each: it starts a Chromium per example
  and waits browser_use's fixed page-load delays); all three run at the same time, and each
  records, per Agent.run / take_step, what a person sees: is_done, success, the final result, the
  action names and the errors (runner.py). The test compares the two sides.
- Scripts decide from the page state the model receives (element numbers are looked up, final
  answers read from the page), so a run that did not reach the page's result reports it.
"""
