"""``sapsam serve``: the web app and its REST API (:mod:`sapsam.web.app`)."""

import click

from sapsam.cli.common import quiet_option


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (the default is this machine only).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--open", "open_page", is_flag=True, help="Open the page in a browser.")
@quiet_option("No progress bar while the kernels load.")
def serve_command(host, port, open_page, quiet):
    """Serve the web app (analyse, train, review, charts) and the REST API under /api,
    documented at /docs.  Ctrl-C stops it."""
    import os
    import socket
    import webbrowser

    import uvicorn

    from sapsam.base.progress import Progress
    from sapsam.compile import cold, warm
    from sapsam.web.app import create_app

    try:  # a port in use is told now, in one line, not by a traceback from the server
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise click.UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    # the kernels compile (or load) once, before any request: compiling, a process a CPU
    fresh = cold(one_hand=True)
    with Progress(quiet) as bars:
        warm(bars.task("compiling kernels" if fresh else "loading kernels", unit="steps"), one_hand=True,
             jobs=len(os.sched_getaffinity(0)) if fresh else 1)
    url = f"http://{'localhost' if host in ('127.0.0.1', '::1') else host}:{port}/"

    class Server(uvicorn.Server):
        async def startup(self, sockets=None):
            await super().startup(sockets)
            if self.started:  # listening: say so only now, so the address answers at once
                click.echo(f"sapsam serves {url} (API docs at {url}docs); Ctrl-C stops it")
                if host not in ("127.0.0.1", "localhost", "::1"):
                    click.echo(f"note: listening on {host}, so other machines can reach it",
                               err=True)
                if open_page:
                    webbrowser.open(url)

    try:
        Server(uvicorn.Config(create_app(), host=host, port=port, log_level="warning")).run()
    except KeyboardInterrupt:  # the way to stop a server: not an interrupted command
        pass
    click.echo("sapsam serve stopped")
