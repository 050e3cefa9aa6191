"""The game: cards, hands, settings, rulesets and scoring (ARCHITECTURE.md)."""
