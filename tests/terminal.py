"""Running the installed ``sapsam`` as a person does: in a pseudo-terminal, or piped."""

import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|\x1b[=>]")
HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"


def sapsam():
    """The console script installed beside this interpreter."""
    path = os.path.join(os.path.dirname(sys.executable), "sapsam")
    assert os.path.exists(path), f"no console script at {path}: install the package (make test)"
    return path


def environment(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    env.setdefault("TERM", "xterm-256color")
    env.update(extra)
    return env


@dataclass
class Run:
    status: int
    out: str  # in a terminal: everything shown, escape codes removed
    err: str  # piped only (a terminal has one screen)
    raw: str  # as written, escape codes and all


def _ctrl_c_as_in_a_shell():
    """Ctrl-C interrupts, as in an interactive shell, even when the tests themselves were
    started with it ignored (a background job of a non-interactive shell is)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args, columns=80, timeout=600, env=None, program=None):
    """``sapsam ARGS`` started in a pseudo-terminal ``columns`` wide: a pexpect child."""
    import pexpect

    return pexpect.spawn(program or sapsam(), list(args), env=env or environment(),
                         dimensions=(40, columns), encoding="utf-8", timeout=timeout,
                         preexec_fn=_ctrl_c_as_in_a_shell)


def in_terminal(*args, columns=80, timeout=600, env=None, program=None):
    """Run ``sapsam ARGS`` in a pseudo-terminal ``columns`` wide; the screen's text."""
    child = spawn(*args, columns=columns, timeout=timeout, env=env, program=program)
    raw = child.read()
    child.close()
    status = child.exitstatus if child.exitstatus is not None else 128 + child.signalstatus
    text = ANSI.sub("", raw).replace("\r\n", "\n").replace("\r", "\n")
    return Run(status, text, "", raw)


def piped(*args, env=None, timeout=600, program=None):
    """Run ``sapsam ARGS`` with stdout and stderr piped (as in a script or CI)."""
    proc = subprocess.run([program or sapsam(), *args], capture_output=True, text=True,
                          env=env or environment(), timeout=timeout, stdin=subprocess.DEVNULL)
    return Run(proc.returncode, proc.stdout, proc.stderr, proc.stdout + proc.stderr)
