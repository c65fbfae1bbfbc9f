"""`gamao` as a real process (`python -m cli`): its exit statuses as a shell sees them. The other CLI tests
call the command in process (tests/cli_run.py), since they are about its output; these keep the process."""

from __future__ import annotations

import pytest

from tests.cli_run import gamao, gamao_process
from tests.datasets import sample


@pytest.mark.parametrize("args,stdin,code", [
    pytest.param(("replay", str(sample("galaxy/match1574521.mat"))), None, 0, id="clean-replay-0"),
    pytest.param(("plays", "4HPwATDgc/ABMA", "31", "--json"), None, 0, id="plays-0"),
    pytest.param(("plays", "not-a-position", "31"), None, 2, id="bad-position-2"),
    pytest.param(("referee", "-", "--json"), b'{"event": "roll", "dice": [7, 1]}\n\xff\xfe\n', 2,
                 id="bytes-not-utf8-2"),  # exited 1 with a traceback before (stdin spooled into a UTF-8 file)
    pytest.param(("no-such-command",), None, 2, id="unknown-command-2"),
    pytest.param((), None, 2, id="no-command-2"),
])
def test_real_process_exits_as_in_process(args: tuple[str, ...], stdin: bytes | None, code: int | None) -> None:
    """The process and the in-process call agree on the exit status and the output, with no traceback."""
    real = gamao_process(*args, stdin=stdin, text=False, timeout=120)
    here = gamao(*args, stdin=stdin, text=False)
    if code is not None:
        assert real.returncode == code, real.stderr[-500:]
    assert real.returncode == here.returncode, (real.stderr[-500:], here.stderr[-500:])
    assert b"Traceback" not in real.stderr + real.stdout
    assert real.stdout == here.stdout
