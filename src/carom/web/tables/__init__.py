"""The club's tables as things: the organiser's list (/tables), each table's fixed tablet
and audience screen pages, their pairing and live channel, and the JSON API (/api/tables)."""
