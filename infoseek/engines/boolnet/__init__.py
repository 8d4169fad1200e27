"""Boolean gene-regulatory networks: the rule reader (`rules`), the synchronous model and
its attractors (`network`), and two engines over it (`engines`): steady states
(fixed points, enumerated with SAT) and dynamics (initial state -> attractor reached,
every completion simulated bit-parallel)."""
