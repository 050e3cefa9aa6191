"""The web app: ``sapsam serve`` (:mod:`analysis.web.app`)."""
