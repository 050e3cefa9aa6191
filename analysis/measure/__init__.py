"""What things are worth: the best setting, reviews, paired comparisons, exploitability and
simulated tables (ARCHITECTURE.md)."""
