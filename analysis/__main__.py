"""``python -m sapsam``: the ``sapsam`` command line, under that name."""

from sapsam.cli import main

if __name__ == "__main__":
    main(prog_name="sapsam")
