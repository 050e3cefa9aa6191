"""Strategies: fitting them, the house way, and the registry that makes a policy of a name
(ARCHITECTURE.md)."""
