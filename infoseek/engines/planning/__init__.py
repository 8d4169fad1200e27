"""The planning engine (Blocks World, protocols §5.2): the valid states enumerated directly, one
backward breadth-first search per goal, the set of optimal plans as the target.

`space` (states, transitions, the backward BFS), `engine` (the engine contract),
`plan_kind` (the ``plan`` answer kind) and `pddl` (the project's PDDL domain, parsed and
grounded by pyperplan: the only module of infoseek that imports pyperplan, which is
GPL-3.0-or-later).
"""
