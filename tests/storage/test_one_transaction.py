"""A request is one transaction: a refusal keeps nothing it wrote."""

from __future__ import annotations

import pytest

from carom.storage import SqlStore
from carom.storage.register import RegisterError, import_rows, read_csv


def test_a_register_import_that_fails_on_row_3_keeps_nothing(store: SqlStore) -> None:
    rows = read_csv("name,club,id\nAnna,BC Nitra,\nBoris,BK Žilina,\nCyril,,77\n")
    with pytest.raises(RegisterError, match="line 4, id: no player 77"):
        import_rows(store, rows)  # Anna and Boris were made before Cyril's row was refused
    assert store.players() == []
    assert import_rows(store, rows[:2]) == (2, 0)
    assert [p.name for p in store.players()] == ["Anna", "Boris"]
