"""Prints the examples table of README.md ("browser_use's own examples") from scenarios.py (``python -m tests.examples.table``, cwd
python-shim-spec); the test checks the file lists every example with its status."""

from tests.examples.scenarios import SCENARIOS, Scenario

WORDS = {'runs': 'runs', 'difference': 'runs with a documented difference', 'cannot': 'cannot apply'}


def _cell(sc: Scenario, version: str) -> str:
    if version not in sc.versions:
        return 'cannot apply (API changed)'
    status = sc.status_048 if version == '0.1.48' and sc.status_048 else sc.status
    return WORDS[status]


def _esc(text: str) -> str:
    return text.replace('|', '\\|')


def row(sc: Scenario) -> str:
    notes = [sc.what]
    if sc.difference:
        notes.append(f'Difference{" on 0.1.40" if sc.status_048 or sc.difference_048 else ""}: {sc.difference}.')
    if sc.difference_048:
        notes.append(f'Difference on 0.1.48: {sc.difference_048}.')
    if sc.user_error:
        notes.append(f'What you see: `{sc.user_error}`')
    if sc.not_on_048:
        notes.append(f'On 0.1.48: `{sc.not_on_048}`')
    return f'| `{sc.path}` | {_cell(sc, "0.1.40")} | {_cell(sc, "0.1.48")} | {_esc(" ".join(notes))} |'


def main() -> None:
    print('| Example | browser_use 0.1.40 | browser_use 0.1.48 | Fixture it runs against, the difference, or why it cannot apply |')
    print('|---|---|---|---|')
    for sc in SCENARIOS:
        print(row(sc))


if __name__ == '__main__':
    main()
