"""Files a person reads: simulation reports, strategy charts, plots, house way charts and the
rules document (ARCHITECTURE.md)."""
