"""``sapsam serve`` as a person starts it: in a terminal and piped, it says where it serves,
answers on localhost, stops on Ctrl-C without a traceback, and a port in use is one line with
status 2."""

import json
import signal
import socket
import subprocess
import urllib.request

import pytest
from terminal import environment, sapsam, spawn


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, timeout=60):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, response.read()


def answers(port):
    status, body = get(f"http://127.0.0.1:{port}/api/rules")
    assert status == 200 and "standard" in json.loads(body)
    status, page = get(f"http://127.0.0.1:{port}/")
    assert status == 200 and b"sapsam" in page


def test_piped(tmp_path):
    port = free_port()
    server = subprocess.Popen([sapsam(), "serve", "--port", str(port)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=environment())
    try:
        line = server.stdout.readline()  # printed once the kernels are loaded
        assert f"localhost:{port}/" in line and "Ctrl-C" in line, line + server.stderr.read()
        answers(port)
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=60)
    assert server.returncode == 0, out + err
    assert "Traceback" not in out + err and "━" not in err and "\x1b[" not in out + err


def test_in_a_terminal():
    port = free_port()
    child = spawn("serve", "--port", str(port), timeout=120)
    try:
        child.expect(f"localhost:{port}/")
        answers(port)
    finally:
        child.sendintr()
        rest = child.read()
        child.close()
    assert child.exitstatus == 0, rest
    assert "Traceback" not in rest


@pytest.mark.parametrize("args, words", [
    (["--port", "70000"], "70000"),
    (["--host", "203.0.113.1"], "cannot listen on 203.0.113.1"),  # not an address of this machine
])
def test_bad_address(args, words):
    run = subprocess.run([sapsam(), "serve", *args], capture_output=True, text=True, timeout=60,
                         env=environment())
    assert run.returncode == 2 and words in run.stderr and "Traceback" not in run.stderr, run


def test_port_in_use():
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        run = subprocess.run([sapsam(), "serve", "--port", str(port)], capture_output=True,
                             text=True, timeout=60, env=environment())
    assert run.returncode == 2, run
    assert run.stderr.strip().count("\n") == 0 and f"127.0.0.1:{port}" in run.stderr, run.stderr
