"""The match: a pure state machine over ``carom/1`` records (RULES.md L, O, C, E).

``apply(state, record)`` gives the next state and the ruling; ``Replayer`` runs a
whole log, undo included. Standard library only.
"""
