"""The planning domain (Blocks World, protocols §5.2): Planning-Q (single turn, the published
shape) and multi-turn planning with k >= 2 atoms jointly needed."""
