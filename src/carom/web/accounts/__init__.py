"""Who may change things: the organiser's password, logging in and out."""
