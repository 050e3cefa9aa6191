"""The web app: ``sapsam serve`` (:mod:`sapsam.web.app`)."""
